import type { Kysely, Selectable } from 'kysely';
import type { Database, RefreshTokensTable } from '../storage/tables.ts';
import { precompiled } from '../storage/precompiled.ts';

export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export async function insertRefreshToken(db: Kysely<Database>, row: RefreshTokenRow): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

const refreshTokenByHash = precompiled((db, a: { projectId: string; hash: string }) =>
  db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', a.hash).where('project_id', '=', a.projectId),
);

/**
 * The live session whose refresh token hashes to `hash` in `projectId`, or null (expired ones
 * too). Precompiled (core/storage/precompiled.ts): it runs on every refresh.
 */
export async function findRefreshTokenByHash(db: Kysely<Database>, projectId: string, hash: string): Promise<RefreshTokenRow | null> {
  return (await refreshTokenByHash.executeTakeFirst(db, { projectId, hash })) ?? null;
}

const refreshTokenById = precompiled((db, a: { projectId: string; id: string }) =>
  db.selectFrom('refresh_tokens').selectAll().where('id', '=', a.id).where('project_id', '=', a.projectId),
);

/** The session `id` of `projectId`, or null (expired ones too). Precompiled: identity-provider refresh grants check their session with it. */
export async function findRefreshToken(db: Kysely<Database>, projectId: string, id: string): Promise<RefreshTokenRow | null> {
  return (await refreshTokenById.executeTakeFirst(db, { projectId, id })) ?? null;
}

/**
 * The activity writes of one or more refreshes, deduplicated and sorted (built by
 * core/sessions/activity-writer.ts `planActivityWrites`): times are epoch ms, `day` is `YYYY-MM-DD`.
 */
export interface ActivityWrites {
  /** Sessions to mark used (and their new agent or place, when it changed), sorted by id. */
  sessions: ReadonlyArray<{ id: string; usedAt: number; userAgent?: string; place?: string }>;
  /** Users to mark active, sorted by id. */
  users: ReadonlyArray<{ projectId: string; id: string; activeAt: number }>;
  /** Active days to record, sorted by project, day and user. */
  activeDays: ReadonlyArray<{ project_id: string; day: string; user_id: string }>;
}

/**
 * Writes `writes`: each session's `last_used_at`, each user's `last_active_at`, and the new rows
 * of `user_active_days` (already present ones are kept; deleted users' skipped). Gone sessions
 * and users are no error: their updates match no row. Rows are written in id order, so two
 * processes' batches on PostgreSQL lock shared rows in the same order and cannot deadlock.
 * Run it in a transaction: one commit for the whole batch.
 */
export async function writeSessionActivity(db: Kysely<Database>, writes: ActivityWrites): Promise<void> {
  for (const s of writes.sessions) {
    await db
      .updateTable('refresh_tokens')
      .set({
        last_used_at: s.usedAt,
        ...(s.userAgent !== undefined ? { user_agent: s.userAgent } : {}),
        ...(s.place !== undefined ? { last_used_place: s.place } : {}),
      })
      .where('id', '=', s.id)
      .execute();
  }
  for (const u of writes.users) {
    await db
      .updateTable('users')
      .set({ last_active_at: u.activeAt })
      .where('project_id', '=', u.projectId)
      .where('id', '=', u.id)
      .execute();
  }
  // Through a select of the users that still exist: a user deleted since its refresh was read
  // must not fail the whole batch on the foreign key. One insert per project and day, each
  // limited to its project's users.
  const groups = new Map<string, { projectId: string; day: string; userIds: string[] }>();
  for (const d of writes.activeDays) {
    const key = `${d.project_id}\u0000${d.day}`;
    const group = groups.get(key) ?? { projectId: d.project_id, day: d.day, userIds: [] };
    group.userIds.push(d.user_id);
    groups.set(key, group);
  }
  for (const { projectId, day, userIds } of groups.values()) {
    await db
      .insertInto('user_active_days')
      .columns(['project_id', 'day', 'user_id'])
      .expression((eb) =>
        eb
          .selectFrom('users')
          .select((s) => ['users.project_id', s.val(day).as('day'), 'users.id'])
          .where('users.project_id', '=', projectId)
          .where('users.id', 'in', userIds)
          .orderBy('users.id'),
      )
      .onConflict((oc) => oc.columns(['project_id', 'day', 'user_id']).doNothing())
      .execute();
  }
}

/** UTC day of an epoch-ms time, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Whether activity at `now` starts a new active day for a user whose previous activity was at
 * `previousActiveAt` (epoch ms; null: none or unknown): false only when both are on the same UTC
 * day, so a refresh on an already active day costs no extra write.
 */
export function isNewActiveDay(now: number, previousActiveAt: number | null): boolean {
  return previousActiveAt === null || utcDay(previousActiveAt) !== utcDay(now);
}

/**
 * Marks `userId` active on the day of `now` (metrics' daily active users). Skipped when the
 * user's previous activity was already on that day (see isNewActiveDay).
 */
export async function recordActiveDay(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  now: number,
  previousActiveAt: number | null = null,
): Promise<void> {
  if (!isNewActiveDay(now, previousActiveAt)) return;
  await db
    .insertInto('user_active_days')
    .values({ project_id: projectId, day: utcDay(now), user_id: userId })
    .onConflict((oc) => oc.columns(['project_id', 'day', 'user_id']).doNothing())
    .execute();
}

/** Ids of every session of a user except `keepId`. */
export async function listOtherSessionIds(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  keepId: string | null,
): Promise<string[]> {
  let q = db.selectFrom('refresh_tokens').select('id').where('project_id', '=', projectId).where('user_id', '=', userId);
  if (keepId) q = q.where('id', '!=', keepId);
  return (await q.execute()).map((r) => r.id);
}

/** Deletes the sessions `ids` of `projectId`. */
export async function deleteRefreshTokens(db: Kysely<Database>, projectId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('refresh_tokens').where('project_id', '=', projectId).where('id', 'in', ids).execute();
}

/** A user's sessions, newest first. */
export async function listUserSessions(db: Kysely<Database>, projectId: string, userId: string): Promise<RefreshTokenRow[]> {
  return db
    .selectFrom('refresh_tokens')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Records sessions as revoked at `revokedAt` (real epoch ms); already recorded ids are kept. */
export async function insertRevokedSessions(
  db: Kysely<Database>,
  projectId: string,
  ids: readonly string[],
  revokedAt: number,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .insertInto('revoked_sessions')
    .values(ids.map((id) => ({ refresh_token_id: id, project_id: projectId, revoked_at: revokedAt })))
    .onConflict((oc) => oc.column('refresh_token_id').doNothing())
    .execute();
}

/** Revocations recorded after `since` (real epoch ms). */
export async function listRevokedSince(
  db: Kysely<Database>,
  since: number,
): Promise<Array<{ refresh_token_id: string; revoked_at: number }>> {
  const rows = await db.selectFrom('revoked_sessions').select(['refresh_token_id', 'revoked_at']).where('revoked_at', '>', since).execute();
  return rows.map((r) => ({ refresh_token_id: r.refresh_token_id, revoked_at: Number(r.revoked_at) }));
}

/** Forgets revocations older than `before` (real epoch ms): their access tokens have expired. */
export async function pruneRevokedSessions(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('revoked_sessions').where('revoked_at', '<', before).execute();
}
