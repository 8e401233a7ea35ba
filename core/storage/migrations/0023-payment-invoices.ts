import type { Kysely, Migration } from 'kysely';

/**
 * `payment_invoices` (issue 34 item 1): the Stripe invoices of a customer's subscriptions, recorded
 * from `invoice.*` webhook events (upstream's `SubscriptionInvoice`): the Stripe invoice id (unique
 * per project), the purchase it bills, status, total in minor units, hosted URL, whether it is the
 * subscription's first (`billing_reason: subscription_create`), and when Gatehouse first saw it.
 */
export const paymentInvoices: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('payment_invoices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('purchase_id', 'text', (c) => c.notNull())
      .addColumn('customer_type', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('stripe_invoice_id', 'text', (c) => c.notNull())
      .addColumn('stripe_subscription_id', 'text', (c) => c.notNull())
      .addColumn('is_creation_invoice', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text')
      .addColumn('amount_total', 'bigint')
      .addColumn('hosted_invoice_url', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('payment_invoices_stripe')
      .on('payment_invoices')
      .columns(['project_id', 'stripe_invoice_id'])
      .unique()
      .execute();
    await db.schema
      .createIndex('payment_invoices_customer')
      .on('payment_invoices')
      .columns(['project_id', 'branch_id', 'customer_type', 'customer_id', 'created_at'])
      .execute();
  },
};
