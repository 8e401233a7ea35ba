/**
 * The path every API route lives under: an operation's `path` (`/users/:user_id`) is relative to
 * it. Upstream's REST API v1 (apps/backend/src/app/api/latest/, served as /api/v1). Imports
 * nothing, so any layer may use it.
 */
export const API_PREFIX = '/api/v1';
