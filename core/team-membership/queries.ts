import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';

/** True when `userId` is a member of team `teamId` in `projectId` (one indexed lookup). */
export async function isTeamMember(db: Kysely<Database>, projectId: string, teamId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!row;
}
