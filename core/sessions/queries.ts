import type { Kysely, Selectable } from 'kysely';
import type { Database, RefreshTokensTable } from '../storage/tables.ts';
import { precompiled } from '../storage/precompiled.ts';

export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export async function insertRefreshToken(db: Kysely<Database>, row: RefreshTokenRow): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

const refreshTokenByHash = precompiled((db, a: { projectId: string; hash: string }) =>
  db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', a.hash).where('project_id', '=', a.projectId));

/**
 * The live session whose refresh token hashes to `hash` in `projectId`, or null (expired ones
 * too). Precompiled (core/storage/precompiled.ts): it runs on every refresh.
 */
export async function findRefreshTokenByHash(db: Kysely<Database>, projectId: string, hash: string): Promise<RefreshTokenRow | null> {
  return (await refreshTokenByHash.executeTakeFirst(db, { projectId, hash })) ?? null;
}

export async function findRefreshToken(db: Kysely<Database>, projectId: string, id: string): Promise<RefreshTokenRow | null> {
  const row = await db.selectFrom('refresh_tokens').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  return row ?? null;
}

/** Marks a session used at `now` and its user active at `now`. */
export async function touchSession(db: Kysely<Database>, row: RefreshTokenRow, now: number, previousActiveAt: number | null = null): Promise<void> {
  await db.updateTable('refresh_tokens').set({ last_used_at: now }).where('id', '=', row.id).execute();
  await db.updateTable('users').set({ last_active_at: now }).where('project_id', '=', row.project_id).where('id', '=', row.user_id).execute();
  await recordActiveDay(db, row.project_id, row.user_id, now, previousActiveAt);
}

/** UTC day of an epoch-ms time, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Marks `userId` active on the day of `now` (metrics' daily active users). Skipped when the
 * user's previous activity was already on that day, so a refresh costs no extra write.
 */
export async function recordActiveDay(db: Kysely<Database>, projectId: string, userId: string, now: number, previousActiveAt: number | null = null): Promise<void> {
  const day = utcDay(now);
  if (previousActiveAt !== null && utcDay(previousActiveAt) === day) return;
  await db.insertInto('user_active_days').values({ project_id: projectId, day, user_id: userId })
    .onConflict((oc) => oc.columns(['project_id', 'day', 'user_id']).doNothing()).execute();
}

/** Ids of every session of a user except `keepId`. */
export async function listOtherSessionIds(db: Kysely<Database>, projectId: string, userId: string, keepId: string | null): Promise<string[]> {
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
  return db.selectFrom('refresh_tokens').selectAll().where('project_id', '=', projectId).where('user_id', '=', userId)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** Records sessions as revoked at `revokedAt` (real epoch ms); already recorded ids are kept. */
export async function insertRevokedSessions(db: Kysely<Database>, projectId: string, ids: readonly string[], revokedAt: number): Promise<void> {
  if (ids.length === 0) return;
  await db.insertInto('revoked_sessions').values(ids.map((id) => ({ refresh_token_id: id, project_id: projectId, revoked_at: revokedAt })))
    .onConflict((oc) => oc.column('refresh_token_id').doNothing()).execute();
}

/** Revocations recorded after `since` (real epoch ms). */
export async function listRevokedSince(db: Kysely<Database>, since: number): Promise<Array<{ refresh_token_id: string; revoked_at: number }>> {
  const rows = await db.selectFrom('revoked_sessions').select(['refresh_token_id', 'revoked_at']).where('revoked_at', '>', since).execute();
  return rows.map((r) => ({ refresh_token_id: r.refresh_token_id, revoked_at: Number(r.revoked_at) }));
}

/** Forgets revocations older than `before` (real epoch ms): their access tokens have expired. */
export async function pruneRevokedSessions(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('revoked_sessions').where('revoked_at', '<', before).execute();
}
