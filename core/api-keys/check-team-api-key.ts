import { checkApiKeyFor } from './check-api-key.ts';

/** `POST /team-api-keys/check` (server) `{api_key}`: as the user variant for team keys. */
export const checkTeamApiKey = checkApiKeyFor('team');
