import { getApiKeyFor } from './get-api-key.ts';

/** `GET /user-api-keys/{api_key_id}` → the key with `value: {last_four}`. API_KEY_NOT_FOUND; clients only their own. */
export const getUserApiKey = getApiKeyFor('user');
