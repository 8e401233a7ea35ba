import { updateApiKeyFor } from './update-api-key.ts';

/** `PATCH /team-api-keys/{api_key_id}`: as the user variant; a client needs `$manage_api_keys`. */
export const updateTeamApiKey = updateApiKeyFor('team');
