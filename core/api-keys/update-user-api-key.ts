import { updateApiKeyFor } from './update-api-key.ts';

/**
 * `PATCH /user-api-keys/{api_key_id}` `{description?, revoked?}` → the key. Revoking sets
 * `manually_revoked_at_millis` once (it cannot be undone); a public key cannot be revoked
 * (PUBLIC_API_KEY_CANNOT_BE_REVOKED). API_KEY_NOT_FOUND; clients only their own keys.
 */
export const updateUserApiKey = updateApiKeyFor('user');
