import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';

/** Whether the internal project (the dashboard) has at least one non-anonymous user. */
export async function internalOwnerExists(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('project_id', '=', INTERNAL_PROJECT_ID)
    .where('is_anonymous', '=', false)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
