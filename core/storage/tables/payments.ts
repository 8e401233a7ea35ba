/**
 * Table types (see core/storage/tables.ts for the conventions): Payments: purchases, item balances, invoices, Stripe accounts, events and the Stripe outbox.
 */
import type { Bool } from './columns.ts';

/** One change of an item's quantity for a customer (core/payments): manual, or granted by a purchase. */
export interface PaymentItemChangesTable {
  id: string;
  project_id: string;
  branch_id: string;
  /** `user`, `team` or `custom`. */
  customer_type: string;
  customer_id: string;
  item_id: string;
  delta: number;
  description: string | null;
  /** Epoch ms after which the change no longer counts; null: never. */
  expires_at: number | null;
  /** `manual` (update-quantity), `grant` (a purchase's included items) or `renewal`. */
  kind: string;
  purchase_id: string | null;
  created_at: number;
}

/** Serializes writers of one customer's item balance: each change bumps `version` first. */
export interface PaymentItemCountersTable {
  project_id: string;
  branch_id: string;
  customer_type: string;
  customer_id: string;
  item_id: string;
  version: number;
  updated_at: number;
}

/** A purchase of a product: one-off or a subscription (core/payments). */
export interface PaymentPurchasesTable {
  id: string;
  project_id: string;
  branch_id: string;
  customer_type: string;
  customer_id: string;
  /** Null for an inline product. */
  product_id: string | null;
  price_id: string | null;
  /** JSON snapshot of the product as configured when bought. */
  product: string;
  quantity: number;
  /** `one_time` or `subscription`. */
  kind: string;
  /** `active`, `trialing`, `canceled`, `refunded`, `past_due` or `incomplete`. */
  status: string;
  test_mode: Bool;
  /** `PURCHASE_PAGE`, `TEST_MODE` or `API_GRANT`. */
  creation_source: string;
  currency: string | null;
  /** Price per unit in the currency's minor unit, read from config (never from the client). */
  unit_amount_minor: number | null;
  stripe_customer_id: string | null;
  stripe_checkout_session_id: string | null;
  stripe_subscription_id: string | null;
  stripe_payment_intent_id: string | null;
  current_period_start: number | null;
  current_period_end: number | null;
  cancel_at_period_end: Bool;
  refunded_at: number | null;
  /** Units a refund revoked (0: money only); null while not refunded (migration 0023). */
  refunded_quantity?: number | null;
  created_at: number;
  updated_at: number;
}

/** A purchase code behind the hosted purchase page; the code is stored hashed. */
export interface PaymentPurchaseCodesTable {
  code_hash: string;
  project_id: string;
  branch_id: string;
  customer_type: string;
  customer_id: string;
  product_id: string | null;
  product: string;
  return_url: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The project's own Stripe account (per branch): keys sealed with a server-derived key. */
export interface PaymentStripeAccountsTable {
  project_id: string;
  branch_id: string;
  secret_key_sealed: string;
  /** The key's mode and last four characters (`sk_test_…4242`), for the dashboard. */
  secret_key_hint: string;
  webhook_secret_sealed: string | null;
  account_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A Stripe event already applied (webhook idempotency per event id). */
export interface PaymentStripeEventsTable {
  project_id: string;
  event_id: string;
  type: string;
  received_at: number;
}

/** A Stripe invoice of a customer's subscription, recorded from `invoice.*` webhook events (core/payments). */
export interface PaymentInvoicesTable {
  id: string;
  project_id: string;
  branch_id: string;
  /** The subscription purchase (`payment_purchases.id`) it bills. */
  purchase_id: string;
  customer_type: string;
  customer_id: string;
  stripe_invoice_id: string;
  stripe_subscription_id: string;
  /** The subscription's first invoice (`billing_reason: subscription_create`). */
  is_creation_invoice: Bool;
  /** Stripe's status (`draft`, `open`, `paid`, `uncollectible`, `void`), as received. */
  status: string | null;
  /** The invoice's total in the currency's minor unit. */
  amount_total: number | null;
  hosted_invoice_url: string | null;
  /** When Gatehouse first recorded it (epoch ms). */
  created_at: number;
  updated_at: number;
}

/**
 * A Stripe subscription change owed after a local change to a purchase (migration 0024;
 * core/payments/stripe-outbox.ts): written in the change's transaction, retried until Stripe has it.
 */
export interface PaymentStripeOutboxTable {
  id: string;
  project_id: string;
  branch_id: string;
  /** The purchase (`payment_purchases.id`) whose local change this carries to Stripe. */
  purchase_id: string;
  stripe_subscription_id: string;
  /** `cancel` (now), `cancel_at_period_end`, or `set_quantity` (to `quantity`; at the period's end when 0). */
  action: string;
  quantity: number | null;
  /** `pending` (due at `next_attempt_at`), `done`, or `failed` (every attempt failed; see `last_error`). */
  status: string;
  attempt_count: number;
  next_attempt_at: number | null;
  /** A process's lease on the row while it calls Stripe (epoch ms); null when free. */
  locked_until: number | null;
  /** The last failed attempt's error, as Stripe or the network reported it. */
  last_error: string | null;
  created_at: number;
  updated_at: number;
}
