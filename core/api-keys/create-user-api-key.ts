import { createApiKeyFor } from './create-api-key.ts';

/**
 * `POST /user-api-keys` `{user_id ("me"|id), description, expires_at_millis?, is_public?}` → **200**
 * key with `value` = the full secret (shown once; stored as SHA-256). Needs `allow_user_api_keys`
 * (else 400 text); a client only for itself (403 text). USER_NOT_FOUND for an unknown user.
 */
export const createUserApiKey = createApiKeyFor('user');
