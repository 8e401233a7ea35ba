import type { Kysely, Selectable, Insertable, Updateable } from 'kysely';
import type { Database, TeamMembersTable, TeamsTable } from '../storage/tables.ts';
import { precompiled } from '../storage/precompiled.ts';

export type TeamRow = Selectable<TeamsTable>;

const teamById = precompiled((db, a: { projectId: string; teamId: string }) =>
  db.selectFrom('teams').selectAll().where('project_id', '=', a.projectId).where('id', '=', a.teamId),
);

/** The team `teamId` of `projectId`, or null. Precompiled: a user's selected team is read with the user. */
export async function findTeam(db: Kysely<Database>, projectId: string, teamId: string): Promise<TeamRow | null> {
  return (await teamById.executeTakeFirst(db, { projectId, teamId })) ?? null;
}

export async function insertTeam(db: Kysely<Database>, row: Insertable<TeamsTable>): Promise<void> {
  await db.insertInto('teams').values(row).execute();
}

export async function insertTeamMember(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  userId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ project_id: projectId, team_id: teamId, user_id: userId, display_name: null, profile_image_url: null, created_at: now })
    .execute();
}

/** Ids of the teams `userId` belongs to in `projectId`. */
export async function listUserTeamIds(db: Kysely<Database>, projectId: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('team_members')
    .select('team_id')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.team_id);
}

export type TeamMemberRow = Selectable<TeamMembersTable>;

/** Teams of a project, oldest first; with `userId`, only the teams that user belongs to. */
export async function listTeams(db: Kysely<Database>, projectId: string, userId?: string): Promise<TeamRow[]> {
  if (userId) {
    return db
      .selectFrom('teams')
      .innerJoin('team_members as m', (j) => j.onRef('m.team_id', '=', 'teams.id'))
      .selectAll('teams')
      .where('teams.project_id', '=', projectId)
      .where('m.project_id', '=', projectId)
      .where('m.user_id', '=', userId)
      .orderBy('teams.created_at')
      .orderBy('teams.id')
      .execute();
  }
  return db.selectFrom('teams').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
}

export async function updateTeam(db: Kysely<Database>, projectId: string, teamId: string, changes: Updateable<TeamsTable>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('teams').set(changes).where('project_id', '=', projectId).where('id', '=', teamId).execute();
}

/** Deletes a team; memberships, their permissions and the team's API keys go with it (cascades). */
export async function deleteTeam(db: Kysely<Database>, projectId: string, teamId: string): Promise<void> {
  await db.deleteFrom('teams').where('project_id', '=', projectId).where('id', '=', teamId).execute();
}

export async function findTeamMember(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  userId: string,
): Promise<TeamMemberRow | null> {
  const row = await db
    .selectFrom('team_members')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

/** Memberships of a project filtered by team and/or user, oldest first. */
export async function listTeamMembers(
  db: Kysely<Database>,
  projectId: string,
  filter: { teamId?: string; userId?: string },
): Promise<TeamMemberRow[]> {
  let q = db.selectFrom('team_members').selectAll().where('project_id', '=', projectId);
  if (filter.teamId) q = q.where('team_id', '=', filter.teamId);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  return q.orderBy('created_at').orderBy('user_id').execute();
}

/** Removes a membership (and, by cascade, the member's team permissions). */
export async function deleteTeamMember(db: Kysely<Database>, projectId: string, teamId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

export async function updateTeamMember(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  userId: string,
  changes: Updateable<TeamMembersTable>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('team_members')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}
