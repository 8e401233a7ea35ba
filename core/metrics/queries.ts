import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { UserRow } from '../users/index.ts';

const DAY_MS = 86_400_000;

/** Day numbers (days since the epoch, UTC) → counts. */
export type DayCounts = Map<number, number>;

function usersBase(db: Kysely<Database>, projectId: string, includeAnonymous: boolean) {
  let q = db.selectFrom('users').where('project_id', '=', projectId);
  if (!includeAnonymous) q = q.where('is_anonymous', '=', 0);
  return q;
}

export async function countUsers(db: Kysely<Database>, projectId: string, includeAnonymous: boolean): Promise<number> {
  const row = await usersBase(db, projectId, includeAnonymous).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sign-ups per UTC day since `fromMs`, grouped in the database (integer division of epoch ms). */
export async function signUpsPerDay(db: Kysely<Database>, projectId: string, fromMs: number, includeAnonymous: boolean): Promise<DayCounts> {
  // A literal, not a parameter: PostgreSQL must see the same expression in SELECT and GROUP BY.
  const day = sql<number>`(signed_up_at / ${sql.lit(DAY_MS)})`;
  const rows = await usersBase(db, projectId, includeAnonymous).where('signed_up_at', '>=', fromMs)
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')]).groupBy(day).execute();
  return new Map(rows.map((r) => [Math.floor(Number(r.day)), Number(r.n)]));
}

/** Distinct active users per UTC day from `fromDay` (`YYYY-MM-DD`). */
export async function activeUsersPerDay(db: Kysely<Database>, projectId: string, fromDay: string, includeAnonymous: boolean): Promise<Map<string, number>> {
  let q = db.selectFrom('user_active_days').innerJoin('users', 'users.id', 'user_active_days.user_id')
    .where('user_active_days.project_id', '=', projectId).where('user_active_days.day', '>=', fromDay);
  if (!includeAnonymous) q = q.where('users.is_anonymous', '=', 0);
  const rows = await q.select(['user_active_days.day as day', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('user_active_days.day').execute();
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

export async function usersByCountry(db: Kysely<Database>, projectId: string, includeAnonymous: boolean): Promise<Record<string, number>> {
  const rows = await usersBase(db, projectId, includeAnonymous).where('country_code', 'is not', null)
    .select(['country_code', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('country_code').execute();
  return Object.fromEntries(rows.map((r) => [r.country_code as string, Number(r.n)]));
}

/** The newest users, or the most recently active, `limit` of them. */
export async function recentUsers(db: Kysely<Database>, projectId: string, by: 'signed_up_at' | 'last_active_at', limit: number, includeAnonymous: boolean): Promise<UserRow[]> {
  let q = usersBase(db, projectId, includeAnonymous).selectAll();
  if (by === 'last_active_at') q = q.where('last_active_at', 'is not', null);
  return q.orderBy(by, 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** How many users can use each sign-in method. */
export async function loginMethodCounts(db: Kysely<Database>, projectId: string, includeAnonymous: boolean): Promise<Array<{ method: string; count: number }>> {
  const row = await usersBase(db, projectId, includeAnonymous).select([
    sql<number>`sum(case when password_hash is not null then 1 else 0 end)`.as('password'),
    sql<number>`sum(case when otp_auth_enabled = 1 then 1 else 0 end)`.as('otp'),
    sql<number>`sum(case when passkey_auth_enabled = 1 then 1 else 0 end)`.as('passkey'),
    sql<number>`sum(case when is_anonymous = 1 then 1 else 0 end)`.as('anonymous'),
  ]).executeTakeFirstOrThrow();
  return (['password', 'otp', 'passkey', 'anonymous'] as const).map((method) => ({ method, count: Number(row[method] ?? 0) }));
}

/** Users by primary-email verification and anonymity, for `auth_overview`. */
export async function userVerificationCounts(db: Kysely<Database>, projectId: string): Promise<{ verified: number; unverified: number; anonymous: number }> {
  const row = await db.selectFrom('users').where('project_id', '=', projectId).select([
    sql<number>`sum(case when is_anonymous = 0 and primary_email_verified = 1 then 1 else 0 end)`.as('verified'),
    sql<number>`sum(case when is_anonymous = 0 and primary_email_verified = 0 then 1 else 0 end)`.as('unverified'),
    sql<number>`sum(case when is_anonymous = 1 then 1 else 0 end)`.as('anonymous'),
  ]).executeTakeFirstOrThrow();
  return { verified: Number(row.verified ?? 0), unverified: Number(row.unverified ?? 0), anonymous: Number(row.anonymous ?? 0) };
}

export async function countTeams(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db.selectFrom('teams').where('project_id', '=', projectId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Distinct users active on any day from `fromDay` (`YYYY-MM-DD`): the monthly active users. */
export async function countActiveUsersSince(db: Kysely<Database>, projectId: string, fromDay: string, includeAnonymous: boolean): Promise<number> {
  let q = db.selectFrom('user_active_days').innerJoin('users', 'users.id', 'user_active_days.user_id')
    .where('user_active_days.project_id', '=', projectId).where('user_active_days.day', '>=', fromDay);
  if (!includeAnonymous) q = q.where('users.is_anonymous', '=', 0);
  const row = await q.select(sql<number>`count(distinct user_active_days.user_id)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Emails of the project by status, per UTC day since `fromMs` and status, and the newest few. */
export async function emailStats(db: Kysely<Database>, projectId: string, fromMs: number, recent: number) {
  const byStatus = await db.selectFrom('emails').where('project_id', '=', projectId)
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  const day = sql<number>`(created_at / ${sql.lit(DAY_MS)})`;
  const daily = await db.selectFrom('emails').where('project_id', '=', projectId).where('created_at', '>=', fromMs)
    .select([day.as('day'), 'status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy([day, 'status']).execute();
  const latest = await db.selectFrom('emails').where('project_id', '=', projectId)
    .select(['id', 'status', 'subject', 'created_at']).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(recent).execute();
  return {
    byStatus: new Map(byStatus.map((r) => [r.status, Number(r.n)])),
    daily: daily.map((r) => ({ day: Math.floor(Number(r.day)), status: r.status, n: Number(r.n) })),
    latest,
  };
}
