import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, PaymentStripeOutboxTable } from '../storage/tables.ts';

/** A row of the Stripe outbox (core/payments/stripe-outbox.ts). */
export type StripeOutboxRow = Selectable<PaymentStripeOutboxTable>;

/** Writes outbox rows through `db` (the transaction of the local change they carry to Stripe). */
export async function insertStripeOutboxRows(db: Kysely<Database>, rows: Insertable<PaymentStripeOutboxTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('payment_stripe_outbox').values(rows).execute();
}

/** Ids of pending rows due at `now` and not leased by a live process, oldest due first. */
export async function findDueStripeOutboxIds(db: Kysely<Database>, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('payment_stripe_outbox')
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
 * Leases row `id` until `lockedUntil` when it is pending, due at `now` and not leased by a live
 * process: one conditional update, so of several processes (one PostgreSQL database) exactly one
 * wins it. Returns the row, or null when another process holds it or it is no longer pending.
 */
export async function claimStripeOutboxRow(
  db: Kysely<Database>,
  id: string,
  now: number,
  lockedUntil: number,
): Promise<StripeOutboxRow | null> {
  const result = await db
    .updateTable('payment_stripe_outbox')
    .set({ locked_until: lockedUntil })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  return (await db.selectFrom('payment_stripe_outbox').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Records an attempt's outcome and releases the lease, if this caller still holds it. */
export async function finishStripeOutboxRow(
  db: Kysely<Database>,
  id: string,
  lockedUntil: number,
  changes: Updateable<PaymentStripeOutboxTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('payment_stripe_outbox')
    .set({ ...changes, locked_until: null })
    .where('id', '=', id)
    .where('locked_until', '=', lockedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The outbox rows of a project's purchase, oldest first. */
export async function listStripeOutboxRows(db: Kysely<Database>, projectId: string, purchaseId: string): Promise<StripeOutboxRow[]> {
  return db
    .selectFrom('payment_stripe_outbox')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('purchase_id', '=', purchaseId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
