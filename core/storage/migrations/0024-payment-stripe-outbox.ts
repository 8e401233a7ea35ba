import type { Kysely, Migration } from 'kysely';

/**
 * `payment_stripe_outbox`: Stripe subscription changes Gatehouse owes Stripe after ending or
 * refunding a purchase locally (cancel now, cancel at the period's end, lower the quantity). A row
 * is written in the same transaction as the local change, attempted at once after commit, and
 * retried with backoff by the background worker until Stripe has it (core/payments/stripe-outbox.ts);
 * `locked_until` leases a row to one process at a time.
 */
export const paymentStripeOutbox: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('payment_stripe_outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('purchase_id', 'text', (c) => c.notNull())
      .addColumn('stripe_subscription_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('quantity', 'integer')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('locked_until', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('payment_stripe_outbox_due').on('payment_stripe_outbox').columns(['status', 'next_attempt_at']).execute();
    await db.schema
      .createIndex('payment_stripe_outbox_purchase')
      .on('payment_stripe_outbox')
      .columns(['project_id', 'purchase_id'])
      .execute();
  },
};
