import { KnownError } from '../errors/index.ts';
import { INTERNAL_PROJECT_ID, type RequestAuth } from '../auth/request-auth.ts';
import type { UserRow } from '../users/index.ts';

/**
 * Owned-project operations exist only in the internal project and need a signed-in user
 * (upstream apps/backend/prisma/seed.ts "List projects").
 *
 * @throws KnownError EXPECTED_INTERNAL_PROJECT, USER_AUTHENTICATION_REQUIRED.
 */
export function requireInternalUser(auth: RequestAuth): UserRow {
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw new KnownError('EXPECTED_INTERNAL_PROJECT');
  if (!auth.user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
  return auth.user;
}
