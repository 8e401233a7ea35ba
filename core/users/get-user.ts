import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import { findUser, type UserRow } from './queries.ts';

/**
 * The user `userId` of `projectId` (naming: `find…` may return null, `get…` throws).
 *
 * @throws KnownError USER_NOT_FOUND when the project has no such user.
 */
export async function getUser(db: Kysely<Database>, projectId: string, userId: string): Promise<UserRow> {
  const user = await findUser(db, projectId, userId);
  if (!user) throw new KnownError('USER_NOT_FOUND');
  return user;
}
