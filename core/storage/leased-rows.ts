import type { Kysely, Updateable } from 'kysely';
import type { Database } from './tables.ts';

/**
 * The tables worked through as leased outboxes by a polling worker in every process: each row has
 * `id`, `status` (`pending` while work is owed), `next_attempt_at` and `locked_until` (ms since the
 * epoch; `locked_until` null or past when no live process holds the row). Emails
 * (core/emails/worker.ts), webhook deliveries (core/webhooks/worker.ts) and Stripe changes
 * (core/payments/stripe-outbox.ts) share these three steps: find what is due, lease one row with a
 * conditional update (of several processes on one database, exactly one wins it), then record the
 * attempt and release the lease only if this caller still holds it.
 */
export type LeasedTable = 'emails' | 'webhook_deliveries' | 'payment_stripe_outbox';

// The three tables share the columns these statements name; emails' typing stands for all of them.
const as = (db: Kysely<Database>, table: LeasedTable) => ({ db, table: table as 'emails' });

/** Ids of `table`'s pending rows due at `now` (ms) and not leased by a live process, oldest due first, at most `limit`. */
export async function findDueIds(db: Kysely<Database>, table: LeasedTable, now: number, limit: number): Promise<string[]> {
  const t = as(db, table);
  const rows = await t.db
    .selectFrom(t.table)
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Leases row `id` of `table` until `lockedUntil` (ms) when it is pending, due at `now` and not
 * leased by a live process: one conditional update, so two processes never both hold it. True when
 * this caller now holds the lease.
 */
export async function takeLease(db: Kysely<Database>, table: LeasedTable, id: string, now: number, lockedUntil: number): Promise<boolean> {
  const t = as(db, table);
  const result = await t.db
    .updateTable(t.table)
    .set({ locked_until: lockedUntil })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records an attempt's outcome (`changes`) on row `id` of `table` and releases the lease, if this
 * caller still holds it (the lease taken until `lockedUntil`). False when another process took the
 * row over after the lease ran out: its outcome then wins.
 */
export async function releaseLease<T extends LeasedTable>(
  db: Kysely<Database>,
  table: T,
  id: string,
  lockedUntil: number,
  changes: Updateable<Database[T]>,
): Promise<boolean> {
  const t = as(db, table);
  const result = await t.db
    .updateTable(t.table)
    .set({ ...(changes as Updateable<Database['emails']>), locked_until: null })
    .where('id', '=', id)
    .where('locked_until', '=', lockedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
