/**
 * The path every API route lives under: an operation's `path` (`/users/:user_id`) is relative to
 * it. Upstream's REST API v1 (https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/, served as /api/v1). Imports
 * nothing, so any layer may use it.
 */
export const API_PREFIX = '/api/v1';
