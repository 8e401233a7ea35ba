import type { Insertable, Kysely, Selectable } from 'kysely';
import { takeLease } from '../storage/leased-rows.ts';
import type { Database, PaymentStripeOutboxTable } from '../storage/tables.ts';

/** A row of the Stripe outbox (core/payments/stripe-outbox.ts). */
export type StripeOutboxRow = Selectable<PaymentStripeOutboxTable>;

/** Writes outbox rows through `db` (the transaction of the local change they carry to Stripe). */
export async function insertStripeOutboxRows(db: Kysely<Database>, rows: Insertable<PaymentStripeOutboxTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('payment_stripe_outbox').values(rows).execute();
}

/**
 * Leases row `id` until `lockedUntil` when it is pending, due at `now` and not leased by a live
 * process (core/storage/leased-rows.ts: of several processes on one PostgreSQL database exactly one
 * wins it). Returns the row, or null when another process holds it or it is no longer pending.
 */
export async function claimStripeOutboxRow(
  db: Kysely<Database>,
  id: string,
  now: number,
  lockedUntil: number,
): Promise<StripeOutboxRow | null> {
  if (!(await takeLease(db, 'payment_stripe_outbox', id, now, lockedUntil))) return null;
  return (await db.selectFrom('payment_stripe_outbox').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
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
