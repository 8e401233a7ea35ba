import { getApiKeyFor } from './get-api-key.ts';

/** `GET /team-api-keys/{api_key_id}` → the key; a client needs `$manage_api_keys` in its team. */
export const getTeamApiKey = getApiKeyFor('team');
