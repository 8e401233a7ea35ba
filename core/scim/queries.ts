import type { Kysely } from 'kysely';
import type { Database, ScimGroupsTable, ScimTokensTable, ScimUsersTable } from '../storage/tables.ts';

export type ScimTokenRow = ScimTokensTable;
export type ScimUserRow = ScimUsersTable;
export type ScimGroupRow = ScimGroupsTable;

// ── Tokens ──────────────────────────────────────────────────────────────────────────────

export async function insertScimToken(db: Kysely<Database>, row: ScimTokenRow): Promise<void> {
  await db.insertInto('scim_tokens').values(row).execute();
}

export async function findScimTokenByHash(db: Kysely<Database>, tokenHash: string): Promise<ScimTokenRow | null> {
  return (await db.selectFrom('scim_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()) ?? null;
}

export async function selectScimTokens(db: Kysely<Database>, projectId: string, teamId: string): Promise<ScimTokenRow[]> {
  return db
    .selectFrom('scim_tokens')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .limit(100)
    .execute();
}

export async function deleteScimTokenRow(db: Kysely<Database>, projectId: string, teamId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('scim_tokens')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function touchScimToken(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('scim_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

// ── Users ───────────────────────────────────────────────────────────────────────────────

export async function findScimUser(db: Kysely<Database>, teamId: string, userId: string): Promise<ScimUserRow | null> {
  return (
    (await db.selectFrom('scim_users').selectAll().where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst()) ?? null
  );
}

/** The team's provisioned users matching an optional equality on one column, a page of them, and the total. */
export async function listScimUsers(
  db: Kysely<Database>,
  teamId: string,
  where: { column: 'user_name' | 'external_id'; value: string } | null,
  offset: number,
  limit: number,
): Promise<{ rows: ScimUserRow[]; total: number }> {
  let base = db.selectFrom('scim_users').where('team_id', '=', teamId);
  if (where) base = base.where(where.column, '=', where.value);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = limit === 0 ? [] : await base.selectAll().orderBy('created_at').orderBy('user_id').offset(offset).limit(limit).execute();
  return { rows, total: Number(total?.n ?? 0) };
}

export async function findScimUserByUserName(db: Kysely<Database>, teamId: string, userName: string): Promise<ScimUserRow | null> {
  return (
    (await db.selectFrom('scim_users').selectAll().where('team_id', '=', teamId).where('user_name', '=', userName).executeTakeFirst()) ??
    null
  );
}

export async function insertScimUser(db: Kysely<Database>, row: ScimUserRow): Promise<void> {
  await db.insertInto('scim_users').values(row).execute();
}

export async function updateScimUser(
  db: Kysely<Database>,
  teamId: string,
  userId: string,
  fields: Partial<Omit<ScimUserRow, 'project_id' | 'team_id' | 'user_id'>>,
): Promise<void> {
  await db.updateTable('scim_users').set(fields).where('team_id', '=', teamId).where('user_id', '=', userId).execute();
}

export async function deleteScimUser(db: Kysely<Database>, teamId: string, userId: string): Promise<void> {
  await db.deleteFrom('scim_users').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
}

// ── Groups ──────────────────────────────────────────────────────────────────────────────

export async function findScimGroup(db: Kysely<Database>, teamId: string, id: string): Promise<ScimGroupRow | null> {
  return (await db.selectFrom('scim_groups').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findScimGroupByName(db: Kysely<Database>, teamId: string, displayName: string): Promise<ScimGroupRow | null> {
  return (
    (await db
      .selectFrom('scim_groups')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('display_name', '=', displayName)
      .executeTakeFirst()) ?? null
  );
}

export async function listScimGroups(
  db: Kysely<Database>,
  teamId: string,
  where: { column: 'display_name' | 'external_id'; value: string } | null,
  offset: number,
  limit: number,
): Promise<{ rows: ScimGroupRow[]; total: number }> {
  let base = db.selectFrom('scim_groups').where('team_id', '=', teamId);
  if (where) base = base.where(where.column, '=', where.value);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = limit === 0 ? [] : await base.selectAll().orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute();
  return { rows, total: Number(total?.n ?? 0) };
}

export async function insertScimGroup(db: Kysely<Database>, row: ScimGroupRow): Promise<void> {
  await db.insertInto('scim_groups').values(row).execute();
}

export async function updateScimGroup(
  db: Kysely<Database>,
  id: string,
  fields: Partial<Pick<ScimGroupRow, 'display_name' | 'external_id' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('scim_groups').set(fields).where('id', '=', id).execute();
}

export async function deleteScimGroup(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('scim_groups').where('id', '=', id).execute();
}

export async function listGroupMemberIds(db: Kysely<Database>, groupId: string): Promise<string[]> {
  const rows = await db.selectFrom('scim_group_members').select('user_id').where('group_id', '=', groupId).orderBy('user_id').execute();
  return rows.map((r) => r.user_id);
}

/** The groups of `teamId` that `userId` belongs to. */
export async function listUserGroups(db: Kysely<Database>, teamId: string, userId: string): Promise<ScimGroupRow[]> {
  return db
    .selectFrom('scim_group_members as m')
    .innerJoin('scim_groups as g', 'g.id', 'm.group_id')
    .selectAll('g')
    .where('g.team_id', '=', teamId)
    .where('m.user_id', '=', userId)
    .execute();
}

export async function insertGroupMember(db: Kysely<Database>, groupId: string, userId: string): Promise<void> {
  await db
    .insertInto('scim_group_members')
    .values({ group_id: groupId, user_id: userId })
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute();
}

export async function deleteGroupMember(db: Kysely<Database>, groupId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('scim_group_members').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
