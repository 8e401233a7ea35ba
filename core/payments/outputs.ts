import * as v from 'valibot';
import { component, NullableString, pagedListOutput } from '../operations/output.ts';

/**
 * Output schemas of the payments operations (core/operations/output.ts): the bodies as they go on
 * the wire, in upstream's shapes. Strict test mode checks every answer against them.
 */

const Interval = v.tuple([v.number(), v.string()]);

/** A product in upstream's inline shape (`productToInlineProduct`). */
export const ProductOutput = component(
  'PaymentsProduct',
  v.strictObject({
    display_name: v.string(),
    customer_type: v.picklist(['user', 'team', 'custom']),
    stackable: v.boolean(),
    server_only: v.boolean(),
    included_items: v.record(
      v.string(),
      v.strictObject({ quantity: v.number(), repeat: v.union([v.literal('never'), Interval]), expires: v.string() }),
    ),
    client_metadata: v.unknown(),
    client_read_only_metadata: v.unknown(),
    server_metadata: v.optional(v.unknown()),
    prices: v.record(v.string(), v.record(v.string(), v.union([v.string(), Interval]))),
  }),
);

export const ItemOutput = component('PaymentsItem', v.strictObject({ id: v.string(), display_name: v.string(), quantity: v.number() }));

export const EmptyOutput = v.strictObject({});

export const UrlOutput = v.strictObject({ url: v.string() });

export const ValidateCodeOutput = v.strictObject({
  product: ProductOutput,
  stripe_account_id: v.string(),
  project_id: v.string(),
  project_logo_url: NullableString,
  already_bought_non_stackable: v.boolean(),
  conflicting_products: v.array(v.strictObject({ product_id: v.string(), display_name: v.string() })),
  test_mode: v.boolean(),
  charges_enabled: v.boolean(),
});

export const PurchaseSessionOutput = v.strictObject({
  checkout_url: NullableString,
  session_id: v.string(),
  client_secret: NullableString,
});

export const TestModePurchaseOutput = v.strictObject({ success: v.literal(true), purchase_id: NullableString });

export const OwnedProductsOutput = pagedListOutput(
  component(
    'PaymentsOwnedProduct',
    v.strictObject({
      id: NullableString,
      quantity: v.number(),
      product: ProductOutput,
      type: v.picklist(['one_time', 'subscription']),
      subscription: v.nullable(
        v.strictObject({
          subscription_id: NullableString,
          current_period_end: NullableString,
          cancel_at_period_end: v.boolean(),
          is_cancelable: v.boolean(),
        }),
      ),
      switch_options: v.optional(v.array(v.strictObject({ product_id: v.string(), product: ProductOutput }))),
    }),
  ),
);

const Customer = { customer_type: v.string(), customer_id: v.string() };
const Adjusted = { adjusted_transaction_id: NullableString, adjusted_entry_index: v.nullable(v.number()) };
const TransactionEntry = v.union([
  v.strictObject({
    type: v.literal('money_transfer'),
    ...Adjusted,
    ...Customer,
    charged_amount: v.record(v.string(), v.string()),
    net_amount: v.strictObject({ USD: v.string() }),
  }),
  v.strictObject({ type: v.literal('item_quantity_change'), ...Adjusted, ...Customer, item_id: v.string(), quantity: v.number() }),
  v.strictObject({
    type: v.literal('product_grant'),
    ...Adjusted,
    ...Customer,
    product_id: NullableString,
    product: ProductOutput,
    price_id: NullableString,
    quantity: v.number(),
    subscription_id: v.optional(v.string()),
    one_time_purchase_id: v.optional(v.string()),
  }),
  v.strictObject({
    type: v.literal('product_revocation'),
    adjusted_transaction_id: v.string(),
    adjusted_entry_index: v.number(),
    quantity: v.number(),
  }),
]);

export const TransactionsOutput = v.strictObject({
  transactions: v.array(
    component(
      'PaymentsTransaction',
      v.strictObject({
        id: v.string(),
        created_at_millis: v.number(),
        effective_at_millis: v.number(),
        type: NullableString,
        ...Customer,
        entries: v.array(TransactionEntry),
        adjusted_by: v.array(v.strictObject({ transaction_id: v.string(), entry_index: v.number() })),
        test_mode: v.boolean(),
      }),
    ),
  ),
  next_cursor: NullableString,
});

export const RefundOutput = v.strictObject({ success: v.literal(true), refund_transaction_id: v.optional(v.string()) });

export const WebhookReceivedOutput = v.strictObject({ received: v.literal(true) });

export const StripeAccountOutput = component(
  'StripeAccountInfo',
  v.strictObject({
    account_id: v.string(),
    charges_enabled: v.boolean(),
    details_submitted: v.boolean(),
    payouts_enabled: v.boolean(),
    secret_key_hint: v.string(),
    webhook_configured: v.boolean(),
    webhook_url: v.string(),
  }),
);

/** `payments_overview` of the dashboard metrics (`paymentsMetrics`), in upstream's shape. */
export const PaymentsOverviewOutput = component(
  'PaymentsOverview',
  v.strictObject({
    subscriptions_by_status: v.record(v.string(), v.number()),
    active_subscription_count: v.number(),
    total_one_time_purchases: v.number(),
    daily_subscriptions: v.array(v.strictObject({ date: v.string(), activity: v.number() })),
    revenue_cents: v.number(),
    mrr_cents: v.number(),
    total_orders: v.number(),
    checkout_conversion_rate: v.number(),
  }),
);

export const BillingOutput = v.strictObject({
  has_customer: v.boolean(),
  default_payment_method: v.nullable(
    v.strictObject({
      id: v.string(),
      brand: NullableString,
      last4: NullableString,
      exp_month: v.nullable(v.number()),
      exp_year: v.nullable(v.number()),
    }),
  ),
});

export const SetupIntentOutput = v.strictObject({ client_secret: v.string(), stripe_account_id: v.string() });

/** A customer's invoices (upstream `customerInvoicesListResponseSchema`). */
export const InvoicesOutput = v.strictObject({
  items: v.array(
    v.strictObject({
      created_at_millis: v.number(),
      status: v.nullable(v.picklist(['draft', 'open', 'paid', 'uncollectible', 'void'])),
      amount_total: v.number(),
      hosted_invoice_url: NullableString,
    }),
  ),
  is_paginated: v.literal(true),
  pagination: v.strictObject({ next_cursor: NullableString }),
});

/** The payment methods of a Stripe payment method configuration, as the dashboard shows them. */
export const MethodConfigsOutput = v.strictObject({
  config_id: v.string(),
  methods: v.array(
    v.strictObject({ id: v.string(), name: v.string(), enabled: v.boolean(), available: v.boolean(), overridable: v.boolean() }),
  ),
});
