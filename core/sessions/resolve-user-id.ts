import { KnownError, StatusError } from '../errors/index.ts';
import type { RequestAuth } from '../auth/request-auth.ts';

/**
 * Resolves a `user_id` parameter that may be `me` (wire-protocol §3 conventions). Clients may
 * only name themselves.
 *
 * @throws KnownError CANNOT_GET_OWN_USER_WITHOUT_USER for `me` without a signed-in user;
 *   StatusError 403 when a client names another user.
 */
export function resolveUserId(auth: RequestAuth, userId: string): string {
  if (userId === 'me') {
    if (!auth.user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    return auth.user.id;
  }
  if (auth.accessType === 'client') {
    if (!auth.user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    if (auth.user.id !== userId) throw new StatusError(403, 'Client can only access its own user.');
  }
  return userId;
}
