import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, PermissionDefinitionsTable } from '../storage/tables.ts';
import type { PermissionScope } from './schemas.ts';

export type DefinitionRow = Selectable<PermissionDefinitionsTable>;

/** A custom definition with its contained ids (sorted). */
export interface Definition {
  id: string;
  scope: PermissionScope;
  description: string | null;
  containedIds: string[];
}

/** Every custom definition of a project in `scope` (or both), with contained ids, sorted by id. */
export async function listDefinitions(db: Kysely<Database>, projectId: string, scope?: PermissionScope): Promise<Definition[]> {
  let q = db.selectFrom('permission_definitions').selectAll().where('project_id', '=', projectId);
  if (scope) q = q.where('scope', '=', scope);
  const rows = await q.execute();
  const edges = await db.selectFrom('permission_edges').select(['parent_id', 'child_id']).where('project_id', '=', projectId).execute();
  const children = new Map<string, string[]>();
  for (const e of edges) children.set(e.parent_id, [...(children.get(e.parent_id) ?? []), e.child_id]);
  return rows
    .map((r) => ({
      id: r.id,
      scope: r.scope as PermissionScope,
      description: r.description,
      containedIds: (children.get(r.id) ?? []).sort(),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One custom definition (any scope), or null. */
export async function findDefinition(db: Kysely<Database>, projectId: string, id: string): Promise<DefinitionRow | null> {
  const row = await db
    .selectFrom('permission_definitions')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

export async function insertDefinition(
  db: Kysely<Database>,
  projectId: string,
  def: { id: string; scope: PermissionScope; description: string | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('permission_definitions')
    .values({ project_id: projectId, id: def.id, scope: def.scope, description: def.description, created_at: now })
    .execute();
}

/** Replaces the contained ids of `parentId`. */
export async function setContained(db: Kysely<Database>, projectId: string, parentId: string, childIds: readonly string[]): Promise<void> {
  await db.deleteFrom('permission_edges').where('project_id', '=', projectId).where('parent_id', '=', parentId).execute();
  const unique = [...new Set(childIds)];
  if (unique.length > 0) {
    await db
      .insertInto('permission_edges')
      .values(unique.map((child) => ({ project_id: projectId, parent_id: parentId, child_id: child })))
      .execute();
  }
}

export async function updateDescription(db: Kysely<Database>, projectId: string, id: string, description: string | null): Promise<void> {
  await db.updateTable('permission_definitions').set({ description }).where('project_id', '=', projectId).where('id', '=', id).execute();
}

/** Renames a definition everywhere it is referenced: edges and grants. */
export async function renameDefinition(db: Kysely<Database>, projectId: string, from: string, to: string): Promise<void> {
  await db.updateTable('permission_definitions').set({ id: to }).where('project_id', '=', projectId).where('id', '=', from).execute();
  await db
    .updateTable('permission_edges')
    .set({ parent_id: to })
    .where('project_id', '=', projectId)
    .where('parent_id', '=', from)
    .execute();
  await db.updateTable('permission_edges').set({ child_id: to }).where('project_id', '=', projectId).where('child_id', '=', from).execute();
  await db
    .updateTable('team_permission_grants')
    .set({ permission_id: to })
    .where('project_id', '=', projectId)
    .where('permission_id', '=', from)
    .execute();
  await db
    .updateTable('project_permission_grants')
    .set({ permission_id: to })
    .where('project_id', '=', projectId)
    .where('permission_id', '=', from)
    .execute();
}

/** Deletes a definition, the edges touching it and every grant of it. */
export async function deleteDefinition(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
  await db
    .deleteFrom('permission_edges')
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('parent_id', '=', id), eb('child_id', '=', id)]))
    .execute();
  await db.deleteFrom('team_permission_grants').where('project_id', '=', projectId).where('permission_id', '=', id).execute();
  await db.deleteFrom('project_permission_grants').where('project_id', '=', projectId).where('permission_id', '=', id).execute();
  await db.deleteFrom('permission_definitions').where('project_id', '=', projectId).where('id', '=', id).execute();
}

/** Replaces the materialized closure of a project with `rows` (ancestor implies descendant). */
export async function replaceClosure(
  db: Kysely<Database>,
  projectId: string,
  rows: ReadonlyArray<{ scope: PermissionScope; ancestor: string; descendant: string }>,
): Promise<void> {
  await db.deleteFrom('permission_closure').where('project_id', '=', projectId).execute();
  // Batches keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('permission_closure')
      .values(
        rows
          .slice(i, i + 200)
          .map((r) => ({ project_id: projectId, scope: r.scope, ancestor_id: r.ancestor, descendant_id: r.descendant })),
      )
      .execute();
  }
}

/**
 * True when `userId` holds `permissionId` in `teamId`, directly or through contained permissions:
 * one indexed join of the grants with the materialized closure.
 */
export async function teamPermissionExists(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('team_permission_grants as g')
    .innerJoin('permission_closure as c', (j) =>
      j.onRef('c.project_id', '=', 'g.project_id').onRef('c.ancestor_id', '=', 'g.permission_id'),
    )
    .select(sql<number>`1`.as('one'))
    .where('g.project_id', '=', projectId)
    .where('g.team_id', '=', teamId)
    .where('g.user_id', '=', userId)
    .where('c.descendant_id', '=', permissionId)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** Grants a team permission; granting twice is a no-op. */
export async function insertTeamGrant(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('team_permission_grants')
    .values({ project_id: projectId, team_id: teamId, user_id: userId, permission_id: permissionId, created_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'team_id', 'user_id', 'permission_id']).doNothing())
    .execute();
}

/** Revokes a direct team grant; returns whether one existed. */
export async function deleteTeamGrant(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<boolean> {
  const res = await db
    .deleteFrom('team_permission_grants')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('permission_id', '=', permissionId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function insertProjectGrant(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  permissionId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('project_permission_grants')
    .values({ project_id: projectId, user_id: userId, permission_id: permissionId, created_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'user_id', 'permission_id']).doNothing())
    .execute();
}

export async function deleteProjectGrant(db: Kysely<Database>, projectId: string, userId: string, permissionId: string): Promise<boolean> {
  const res = await db
    .deleteFrom('project_permission_grants')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('permission_id', '=', permissionId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Team permission rows `{id, team_id, user_id}`; with `recursive`, expanded through the closure. Sorted. */
export async function listTeamGrants(
  db: Kysely<Database>,
  projectId: string,
  filter: { teamId?: string; userId?: string; permissionId?: string; recursive: boolean },
) {
  let rows: Array<{ id: string; team_id: string; user_id: string }>;
  if (filter.recursive) {
    let q = db
      .selectFrom('team_permission_grants as g')
      .innerJoin('permission_closure as c', (j) =>
        j.onRef('c.project_id', '=', 'g.project_id').onRef('c.ancestor_id', '=', 'g.permission_id'),
      )
      .select(['c.descendant_id as id', 'g.team_id', 'g.user_id'])
      .distinct()
      .where('g.project_id', '=', projectId);
    if (filter.teamId) q = q.where('g.team_id', '=', filter.teamId);
    if (filter.userId) q = q.where('g.user_id', '=', filter.userId);
    if (filter.permissionId) q = q.where('c.descendant_id', '=', filter.permissionId);
    rows = await q.execute();
  } else {
    let q = db
      .selectFrom('team_permission_grants')
      .select(['permission_id as id', 'team_id', 'user_id'])
      .where('project_id', '=', projectId);
    if (filter.teamId) q = q.where('team_id', '=', filter.teamId);
    if (filter.userId) q = q.where('user_id', '=', filter.userId);
    if (filter.permissionId) q = q.where('permission_id', '=', filter.permissionId);
    rows = await q.execute();
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => cmp(a.team_id, b.team_id) || cmp(a.user_id, b.user_id) || cmp(a.id, b.id));
}

/** Project permission rows `{id, user_id}`; with `recursive`, expanded through the closure. Sorted. */
export async function listProjectGrants(
  db: Kysely<Database>,
  projectId: string,
  filter: { userId?: string; permissionId?: string; recursive: boolean },
) {
  let rows: Array<{ id: string; user_id: string }>;
  if (filter.recursive) {
    let q = db
      .selectFrom('project_permission_grants as g')
      .innerJoin('permission_closure as c', (j) =>
        j.onRef('c.project_id', '=', 'g.project_id').onRef('c.ancestor_id', '=', 'g.permission_id'),
      )
      .select(['c.descendant_id as id', 'g.user_id'])
      .distinct()
      .where('g.project_id', '=', projectId);
    if (filter.userId) q = q.where('g.user_id', '=', filter.userId);
    if (filter.permissionId) q = q.where('c.descendant_id', '=', filter.permissionId);
    rows = await q.execute();
  } else {
    let q = db.selectFrom('project_permission_grants').select(['permission_id as id', 'user_id']).where('project_id', '=', projectId);
    if (filter.userId) q = q.where('user_id', '=', filter.userId);
    if (filter.permissionId) q = q.where('permission_id', '=', filter.permissionId);
    rows = await q.execute();
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => cmp(a.user_id, b.user_id) || cmp(a.id, b.id));
}
