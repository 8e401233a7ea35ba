import { KnownError, StatusError } from '../errors/index.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import type { UserRow } from '../users/index.ts';

/**
 * Resolves a `user_id` parameter: `me` becomes the signed-in user, or CANNOT_GET_OWN_USER_WITHOUT_USER
 * when there is none (product-spec §5 "User id me requires an authenticated user").
 */
export function resolveUserId(auth: RequestAuth, userIdOrMe: string): string {
  if (userIdOrMe !== 'me') return userIdOrMe;
  if (!auth.user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  return auth.user.id;
}

/** The signed-in user of a client request, or USER_AUTHENTICATION_REQUIRED. */
export function requireUser(auth: RequestAuth): UserRow {
  if (!auth.user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
  return auth.user;
}

/**
 * For client callers, the resolved `userId` must be the caller itself; otherwise 403 text
 * (clients act only on their own data, wire-protocol §3 conventions). Server and admin pass.
 */
export function requireSelfForClient(auth: RequestAuth, userId: string | undefined, what: string): void {
  if (auth.accessType !== 'client') return;
  if (!auth.user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  if (userId !== auth.user.id) {
    throw new StatusError(403, `Client can only ${what} for their own user. user_id must be either "me" or the ID of the current user`);
  }
}
