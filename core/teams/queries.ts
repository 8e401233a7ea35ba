import type { Kysely, Selectable, Insertable } from 'kysely';
import type { Database, TeamsTable } from '../storage/tables.ts';

export type TeamRow = Selectable<TeamsTable>;

export async function findTeam(db: Kysely<Database>, projectId: string, teamId: string): Promise<TeamRow | null> {
  const row = await db.selectFrom('teams').selectAll().where('project_id', '=', projectId).where('id', '=', teamId).executeTakeFirst();
  return row ?? null;
}

export async function insertTeam(db: Kysely<Database>, row: Insertable<TeamsTable>): Promise<void> {
  await db.insertInto('teams').values(row).execute();
}

export async function isTeamMember(db: Kysely<Database>, projectId: string, teamId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('team_members').select('user_id')
    .where('project_id', '=', projectId).where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return !!row;
}

export async function insertTeamMember(db: Kysely<Database>, projectId: string, teamId: string, userId: string, now: number): Promise<void> {
  await db.insertInto('team_members').values({ project_id: projectId, team_id: teamId, user_id: userId, display_name: null, profile_image_url: null, created_at: now }).execute();
}

/** Ids of the teams `userId` belongs to in `projectId`. */
export async function listUserTeamIds(db: Kysely<Database>, projectId: string, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('team_members').select('team_id').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  return rows.map((r) => r.team_id);
}
