import type { Kysely, Selectable } from 'kysely';
import type { Database, SignInFailuresTable } from '../storage/tables.ts';

export type SignInFailureRow = Selectable<SignInFailuresTable>;

export async function insertFailure(db: Kysely<Database>, row: SignInFailureRow): Promise<void> {
  await db.insertInto('sign_in_failures').values(row).execute();
}

/** The project's failures since `since` (epoch ms), newest first, at most `limit`. */
export async function listFailures(db: Kysely<Database>, projectId: string, since: number, limit: number): Promise<SignInFailureRow[]> {
  return db
    .selectFrom('sign_in_failures')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Deletes every project's failures older than `before` (epoch ms). */
export async function pruneFailures(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('created_at', '<', before).execute();
}
