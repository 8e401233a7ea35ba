import { checkApiKeyFor } from './check-api-key.ts';

/**
 * `POST /user-api-keys/check` (server) `{api_key}` → the key object (`value: {last_four}`).
 * Errors, in order: API_KEY_NOT_FOUND, WRONG_API_KEY_TYPE `{expected_type, actual_type}`,
 * API_KEY_REVOKED, API_KEY_EXPIRED (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/user-api-keys/). The SDK maps them all to "no user".
 */
export const checkUserApiKey = checkApiKeyFor('user');
