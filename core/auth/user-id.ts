import { KnownError, StatusError } from '../errors/index.ts';
import type { User } from './subjects.ts';
import type { RequestAuth } from './request-auth.ts';

/**
 * Resolves a `user_id` parameter: `me` becomes the signed-in user (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts "User id me
 * requires an authenticated user"); any other id is returned as given.
 *
 * @throws KnownError CANNOT_GET_OWN_USER_WITHOUT_USER for `me` without a signed-in user.
 */
export function resolveMe(auth: RequestAuth, userIdOrMe: string): string {
  if (userIdOrMe !== 'me') return userIdOrMe;
  if (!auth.user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  return auth.user.id;
}

/** The signed-in user, or USER_AUTHENTICATION_REQUIRED. */
export function requireUser(auth: RequestAuth): User {
  if (!auth.user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
  return auth.user;
}

/**
 * For client callers, `userId` must be the caller itself; otherwise 403 text (clients act only on
 * their own data, upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/ conventions). Server and admin pass.
 *
 * @throws KnownError CANNOT_GET_OWN_USER_WITHOUT_USER for a client without a user.
 */
export function requireSelfForClient(auth: RequestAuth, userId: string | undefined, what: string, message?: string): void {
  if (auth.accessType !== 'client') return;
  if (!auth.user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  if (userId !== auth.user.id) {
    throw new StatusError(
      'forbidden',
      message ?? `Client can only ${what} for their own user. user_id must be either "me" or the ID of the current user`,
    );
  }
}

/**
 * `resolveMe`, then `requireSelfForClient` (with `message` as the 403 text when given): the user a
 * request may act on. For routes whose
 * `user_id` names the subject of the call (sessions, contact channels, users by id).
 */
export function resolveUserId(auth: RequestAuth, userIdOrMe: string, message?: string): string {
  const userId = resolveMe(auth, userIdOrMe);
  requireSelfForClient(auth, userId, 'access data', message);
  return userId;
}
