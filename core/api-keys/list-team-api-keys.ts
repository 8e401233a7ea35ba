import { listApiKeysFor } from './list-api-keys.ts';

/** `GET /team-api-keys?team_id=` → the team's keys; a client needs `$manage_api_keys` (API_KEY_NOT_FOUND). */
export const listTeamApiKeys = listApiKeysFor('team');
