import { listApiKeysFor } from './list-api-keys.ts';

/**
 * `GET /user-api-keys?user_id=` → `{items, is_paginated: false}`, newest first. A client lists only
 * its own keys (`user_id=me`). Without `user_id`: SCHEMA_ERROR "user_id is required for user API
 * keys" (upstream `api-keys/handlers.tsx`).
 */
export const listUserApiKeys = listApiKeysFor('user');
