import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../storage/tables.ts';

/** Outcome of one atomic take: whether it was allowed, and the row's state after it. */
export interface TakeResult {
  allowed: boolean;
  /** Tokens left (bucket) or consecutive failures (failure counter). */
  tokens: number;
  /** Epoch ms: last refill (bucket) or when the next attempt is allowed (failure counter). */
  updatedAt: number;
}

const col = (name: 'tokens' | 'updated_at') => sql.ref(`throttle_buckets.${name}`);
const real = (n: number) => sql`cast(${n} as double precision)`;
const int = (n: number) => sql`cast(${n} as bigint)`;

/**
 * Takes one token from the bucket `key` (capacity `capacity`, refilled continuously at
 * `refillPerMs` tokens per ms), atomically in one statement on both dialects (an upsert: the
 * row is locked by PostgreSQL, SQLite has one writer). A missing row is a full bucket. A
 * refused take changes nothing but the refill bookkeeping.
 */
export async function takeToken(
  db: Kysely<Database>,
  key: string,
  capacity: number,
  refillPerMs: number,
  now: number,
): Promise<TakeResult> {
  const elapsed = sql`(case when ${int(now)} > ${col('updated_at')} then ${int(now)} - ${col('updated_at')} else 0 end)`;
  const grown = sql`(${col('tokens')} + ${elapsed} * ${real(refillPerMs)})`;
  const refilled = sql`(case when ${grown} > ${real(capacity)} then ${real(capacity)} else ${grown} end)`;
  const result = await sql<{ tokens: number; updated_at: number; allowed: number }>`
    insert into throttle_buckets (key, tokens, updated_at, allowed) values (${key}, ${real(capacity - 1)}, ${int(now)}, 1)
    on conflict (key) do update set
      allowed = case when ${refilled} >= 1 then 1 else 0 end,
      tokens = case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end,
      updated_at = case when ${int(now)} > ${col('updated_at')} then ${int(now)} else ${col('updated_at')} end
    returning tokens, updated_at, allowed`.execute(db);
  return toResult(result.rows[0]);
}

/**
 * Claims one attempt on the failure counter `key`, counting it as a failure in advance (cleared
 * by `deleteKey` on success), atomically: allowed when the counter is below `lockAt` and its
 * next-attempt time has come; then the count grows by one and the next attempt is pushed back by
 * `delayFor(count)` ms. A refused claim changes nothing, so hammering does not extend a delay.
 *
 * @param delayFor the delay in ms after the n-th consecutive failure (n ≥ 1); evaluated in SQL for
 *   n = 1 … `lockAt` as a fixed ladder of constants.
 */
export async function claimAttempt(
  db: Kysely<Database>,
  key: string,
  lockAt: number,
  delayFor: (n: number) => number,
  now: number,
): Promise<TakeResult> {
  const next = sql`(${col('tokens')} + 1)`;
  // One `when` per run of equal delays, at the run's last n: `when next <= n then delay(n)`.
  const ladder: RawBuilder<unknown>[] = [];
  for (let n = 1; n <= lockAt; n++) {
    if (n === lockAt || delayFor(n + 1) !== delayFor(n)) ladder.push(sql`when ${next} <= ${real(n)} then ${int(delayFor(n))}`);
  }
  const open = sql`(${col('tokens')} < ${real(lockAt)} and ${col('updated_at')} <= ${int(now)})`;
  const result = await sql<{ tokens: number; updated_at: number; allowed: number }>`
    insert into throttle_buckets (key, tokens, updated_at, allowed) values (${key}, ${real(1)}, ${int(now + delayFor(1))}, 1)
    on conflict (key) do update set
      allowed = case when ${open} then 1 else 0 end,
      tokens = case when ${open} then ${next} else ${col('tokens')} end,
      updated_at = case when ${open} then ${int(now)} + (case ${sql.join(ladder, sql` `)} else ${int(delayFor(lockAt))} end) else ${col('updated_at')} end
    returning tokens, updated_at, allowed`.execute(db);
  return toResult(result.rows[0]);
}

/** Forgets a bucket or counter (a successful sign-in clears its failures). */
export async function deleteKey(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('throttle_buckets').where('key', '=', key).execute();
}

/** Deletes rows untouched since `before` (epoch ms): full buckets and long-expired counters. */
export async function pruneThrottleRows(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('throttle_buckets').where('updated_at', '<', before).execute();
}

function toResult(row: { tokens: number; updated_at: number; allowed: number } | undefined): TakeResult {
  if (!row) throw new Error('throttle upsert returned no row');
  return { allowed: Number(row.allowed) === 1, tokens: Number(row.tokens), updatedAt: Number(row.updated_at) };
}
