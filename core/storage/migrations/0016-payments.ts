import type { Kysely, Migration } from 'kysely';

/**
 * Payments: the item ledger (one row per quantity change, grants of purchased products
 * included), a per-customer-and-item counter row that serializes writers of one balance, purchases
 * (one-off and subscriptions, with the price read from config at purchase time), purchase codes
 * behind the hosted purchase page, the project's own Stripe keys (sealed), and the ids of Stripe
 * events already applied (webhook idempotency).
 */
export const payments: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('payment_item_changes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('customer_type', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('delta', 'bigint', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('purchase_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('payment_item_changes_balance')
      .on('payment_item_changes')
      .columns(['project_id', 'branch_id', 'customer_type', 'customer_id', 'item_id'])
      .execute();
    await db.schema.createIndex('payment_item_changes_purchase').on('payment_item_changes').columns(['purchase_id']).execute();

    await db.schema
      .createTable('payment_item_counters')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('customer_type', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('payment_item_counters_pk', ['project_id', 'branch_id', 'customer_type', 'customer_id', 'item_id'])
      .execute();

    await db.schema
      .createTable('payment_purchases')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('customer_type', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('product_id', 'text')
      .addColumn('price_id', 'text')
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('quantity', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('test_mode', 'integer', (c) => c.notNull())
      .addColumn('creation_source', 'text', (c) => c.notNull())
      .addColumn('currency', 'text')
      .addColumn('unit_amount_minor', 'bigint')
      .addColumn('stripe_customer_id', 'text')
      .addColumn('stripe_checkout_session_id', 'text')
      .addColumn('stripe_subscription_id', 'text')
      .addColumn('stripe_payment_intent_id', 'text')
      .addColumn('current_period_start', 'bigint')
      .addColumn('current_period_end', 'bigint')
      .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('refunded_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('payment_purchases_customer')
      .on('payment_purchases')
      .columns(['project_id', 'branch_id', 'customer_type', 'customer_id'])
      .execute();
    await db.schema.createIndex('payment_purchases_created').on('payment_purchases').columns(['project_id', 'created_at']).execute();
    await db.schema
      .createIndex('payment_purchases_checkout')
      .on('payment_purchases')
      .columns(['project_id', 'stripe_checkout_session_id'])
      .unique()
      .execute();
    await db.schema
      .createIndex('payment_purchases_subscription')
      .on('payment_purchases')
      .columns(['project_id', 'stripe_subscription_id'])
      .execute();

    await db.schema
      .createTable('payment_purchase_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('customer_type', 'text', (c) => c.notNull())
      .addColumn('customer_id', 'text', (c) => c.notNull())
      .addColumn('product_id', 'text')
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('return_url', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('payment_purchase_codes_expiry').on('payment_purchase_codes').columns(['expires_at']).execute();

    await db.schema
      .createTable('payment_stripe_accounts')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('secret_key_sealed', 'text', (c) => c.notNull())
      .addColumn('secret_key_hint', 'text', (c) => c.notNull())
      .addColumn('webhook_secret_sealed', 'text')
      .addColumn('account_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('payment_stripe_accounts_pk', ['project_id', 'branch_id'])
      .execute();

    await db.schema
      .createTable('payment_stripe_events')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('payment_stripe_events_pk', ['project_id', 'event_id'])
      .execute();
  },
};
