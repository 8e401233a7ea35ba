import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { UserRow } from '../users/index.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Day numbers (days since the epoch, UTC) → counts. */
export type DayCounts = Map<number, number>;

function usersBase(db: Kysely<Database>, projectId: string, includeAnonymous: boolean) {
  let q = db.selectFrom('users').where('project_id', '=', projectId);
  if (!includeAnonymous) q = q.where('is_anonymous', '=', false);
  return q;
}

export async function countUsers(db: Kysely<Database>, projectId: string, includeAnonymous: boolean): Promise<number> {
  const row = await usersBase(db, projectId, includeAnonymous)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every user of the project and the anonymous ones among them (upstream `metrics/user-counts`). */
export async function userCounts(db: Kysely<Database>, projectId: string): Promise<{ total: number; anonymous: number }> {
  const row = await db
    .selectFrom('users')
    .where('project_id', '=', projectId)
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      sql<number>`sum(case when is_anonymous = ${true} then 1 else 0 end)`.as('anonymous'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), anonymous: Number(row.anonymous ?? 0) };
}

/** Sign-ups per time bucket (`bucketMs` wide, epoch-aligned) since `fromMs`, grouped in the database. */
export async function signUpsPerBucket(
  db: Kysely<Database>,
  projectId: string,
  fromMs: number,
  bucketMs: number,
  includeAnonymous: boolean,
): Promise<Map<number, number>> {
  // A literal, not a parameter: PostgreSQL must see the same expression in SELECT and GROUP BY.
  const bucket = sql<number>`(signed_up_at / ${sql.lit(bucketMs)})`;
  const rows = await usersBase(db, projectId, includeAnonymous)
    .where('signed_up_at', '>=', fromMs)
    .select([bucket.as('bucket'), (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(bucket)
    .execute();
  return new Map(rows.map((r) => [Math.floor(Number(r.bucket)), Number(r.n)]));
}

/** Sign-ups per UTC day since `fromMs`. */
export function signUpsPerDay(db: Kysely<Database>, projectId: string, fromMs: number, includeAnonymous: boolean): Promise<DayCounts> {
  return signUpsPerBucket(db, projectId, fromMs, DAY_MS, includeAnonymous);
}

/** Sign-ups per UTC hour since `fromMs` (keys: hours since the epoch). */
export function signUpsPerHour(
  db: Kysely<Database>,
  projectId: string,
  fromMs: number,
  includeAnonymous: boolean,
): Promise<Map<number, number>> {
  return signUpsPerBucket(db, projectId, fromMs, HOUR_MS, includeAnonymous);
}

/** Who was active on which UTC day from `fromDay` (`YYYY-MM-DD`), with whether the user is anonymous. */
export async function activeDays(
  db: Kysely<Database>,
  projectId: string,
  fromDay: string,
): Promise<Array<{ userId: string; day: string; anonymous: boolean }>> {
  const rows = await db
    .selectFrom('user_active_days')
    .innerJoin('users', 'users.id', 'user_active_days.user_id')
    .where('user_active_days.project_id', '=', projectId)
    .where('user_active_days.day', '>=', fromDay)
    .select(['user_active_days.user_id as user_id', 'user_active_days.day as day', 'users.is_anonymous as is_anonymous'])
    .execute();
  return rows.map((r) => ({ userId: r.user_id, day: r.day, anonymous: r.is_anonymous }));
}

/** The first day each user active since `fromDay` was ever active (`YYYY-MM-DD`). */
export async function firstActiveDays(db: Kysely<Database>, projectId: string, fromDay: string): Promise<Map<string, string>> {
  const recent = db.selectFrom('user_active_days').select('user_id').where('project_id', '=', projectId).where('day', '>=', fromDay);
  const rows = await db
    .selectFrom('user_active_days')
    .where('project_id', '=', projectId)
    .where('user_id', 'in', recent)
    .select(['user_id', (eb) => eb.fn.min<string>('day').as('first')])
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, String(r.first)]));
}

/**
 * Users by country among those active since `fromMs` (upstream counts users with a session
 * refresh in its 30-day window). Gatehouse knows each user's sign-up country, not the country of
 * their latest request.
 */
export async function usersByCountry(
  db: Kysely<Database>,
  projectId: string,
  fromMs: number,
  includeAnonymous: boolean,
): Promise<Record<string, number>> {
  const rows = await usersBase(db, projectId, includeAnonymous)
    .where('country_code', 'is not', null)
    .where('last_active_at', '>=', fromMs)
    .select(['country_code', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('country_code')
    .orderBy('n', 'desc')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.country_code as string, Number(r.n)]));
}

/** The newest users, or the most recently active, `limit` of them. */
export async function recentUsers(
  db: Kysely<Database>,
  projectId: string,
  by: 'signed_up_at' | 'last_active_at',
  limit: number,
  includeAnonymous: boolean,
): Promise<UserRow[]> {
  let q = usersBase(db, projectId, includeAnonymous).selectAll();
  if (by === 'last_active_at') q = q.where('last_active_at', 'is not', null);
  return q.orderBy(by, 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Users with a session issued or refreshed since `fromMs` (impersonation aside), most recently
 * active first: upstream's "live" users, who refreshed a token in its window.
 */
export async function usersActiveSince(
  db: Kysely<Database>,
  projectId: string,
  fromMs: number,
  includeAnonymous: boolean,
): Promise<UserRow[]> {
  const live = db
    .selectFrom('refresh_tokens')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('is_impersonation', '=', false)
    .where('last_used_at', '>=', fromMs);
  return usersBase(db, projectId, includeAnonymous)
    .selectAll()
    .where('id', 'in', live)
    .orderBy('last_active_at', 'desc')
    .orderBy('id', 'asc')
    .execute();
}

/**
 * Sign-in methods held, one count per method as upstream counts its auth-method rows: `password`,
 * `otp`, `passkey`, and each OAuth provider id (accounts allowed to sign in). Methods nobody
 * holds are left out.
 */
export async function loginMethodCounts(db: Kysely<Database>, projectId: string): Promise<Array<{ method: string; count: number }>> {
  const row = await db
    .selectFrom('users')
    .where('project_id', '=', projectId)
    .select([
      sql<number>`sum(case when password_hash is not null then 1 else 0 end)`.as('password'),
      sql<number>`sum(case when otp_auth_enabled = ${true} then 1 else 0 end)`.as('otp'),
      sql<number>`sum(case when passkey_auth_enabled = ${true} then 1 else 0 end)`.as('passkey'),
    ])
    .executeTakeFirstOrThrow();
  const oauth = await db
    .selectFrom('oauth_accounts')
    .where('project_id', '=', projectId)
    .where('allow_sign_in', '=', true)
    .select(['provider_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('provider_id')
    .execute();
  const counts = [
    ...(['password', 'otp', 'passkey'] as const).map((method) => ({ method, count: Number(row[method] ?? 0) })),
    ...oauth.map((r) => ({ method: r.provider_id.toLowerCase(), count: Number(r.n) })),
  ];
  return counts.filter((c) => c.count > 0).sort((a, b) => b.count - a.count || a.method.localeCompare(b.method));
}

/**
 * Non-anonymous users with and without a verified primary email, and anonymous users, for
 * `auth_overview` (upstream counts a user verified when any verified email channel is theirs).
 */
export async function userVerificationCounts(
  db: Kysely<Database>,
  projectId: string,
): Promise<{ verified: number; unverified: number; anonymous: number }> {
  const row = await db
    .selectFrom('users')
    .where('project_id', '=', projectId)
    .select([
      sql<number>`sum(case when is_anonymous = ${true} then 1 else 0 end)`.as('anonymous'),
      sql<number>`sum(case when is_anonymous = ${false} then 1 else 0 end)`.as('named'),
      sql<number>`sum(case when is_anonymous = ${false} and (primary_email_verified = ${true} or id in (
      select user_id from contact_channels where project_id = ${projectId} and type = 'email' and is_verified = ${true}
    )) then 1 else 0 end)`.as('verified'),
    ])
    .executeTakeFirstOrThrow();
  const verified = Number(row.verified ?? 0);
  return { verified, unverified: Number(row.named ?? 0) - verified, anonymous: Number(row.anonymous ?? 0) };
}

export async function countTeams(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('teams')
    .where('project_id', '=', projectId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Days on which `userId` was active since `fromDay` (`YYYY-MM-DD`). */
export async function userActiveDaysSince(db: Kysely<Database>, projectId: string, userId: string, fromDay: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('user_active_days')
    .select('day')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('day', '>=', fromDay)
    .execute();
  return new Set(rows.map((r) => r.day));
}

/** Emails of the project by stored status, per UTC day since `fromMs` and status, and the newest few. */
export async function emailStats(db: Kysely<Database>, projectId: string, fromMs: number, recent: number) {
  const byStatus = await db
    .selectFrom('emails')
    .where('project_id', '=', projectId)
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const day = sql<number>`(created_at / ${sql.lit(DAY_MS)})`;
  const daily = await db
    .selectFrom('emails')
    .where('project_id', '=', projectId)
    .where('created_at', '>=', fromMs)
    .select([day.as('day'), 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy([day, 'status'])
    .execute();
  const latest = await db
    .selectFrom('emails')
    .where('project_id', '=', projectId)
    .select(['id', 'status', 'subject', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(recent)
    .execute();
  return {
    byStatus: new Map(byStatus.map((r) => [r.status, Number(r.n)])),
    daily: daily.map((r) => ({ day: Math.floor(Number(r.day)), status: r.status, n: Number(r.n) })),
    latest,
  };
}
