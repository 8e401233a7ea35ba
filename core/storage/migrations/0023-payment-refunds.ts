import type { Kysely, Migration } from 'kysely';

/**
 * `payment_purchases.refunded_quantity` (issue 34 item 1): how many units of a purchase a refund
 * revoked (upstream's `refund_entries[].quantity`); null while none was. A purchase with every unit
 * revoked is `refunded`; a partial revocation leaves the rest owned, a money-only refund (quantity
 * 0) leaves all of it.
 */
export const paymentRefunds: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('payment_purchases').addColumn('refunded_quantity', 'integer').execute();
  },
};
