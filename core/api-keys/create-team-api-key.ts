import { createApiKeyFor } from './create-api-key.ts';

/**
 * `POST /team-api-keys` `{team_id, description, expires_at_millis?, is_public?}` → 200 key with the
 * full secret. Needs `allow_team_api_keys`; a client needs `$manage_api_keys` in the team
 * (API_KEY_NOT_FOUND otherwise). TEAM_NOT_FOUND for an unknown team.
 */
export const createTeamApiKey = createApiKeyFor('team');
