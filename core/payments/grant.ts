import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import { uuid } from '../lib/random.ts';
import type { Database } from '../storage/tables.ts';
import { defaultProducts, isActivePurchase } from './balance.ts';
import { ensureCustomerExists } from './customers.ts';
import { purchaseForBalance } from './items.ts';
import { addInterval, type CustomerType, type PaymentsModel, type ProductConfig } from './model.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { chargeOf, productSnapshot, selectPrice } from './products.ts';
import { insertPurchase, listCustomerPurchases, lockCustomerPurchases, updatePurchase, type PurchaseRow } from './queries.ts';

/** Who a purchase is for. */
export interface CustomerRef {
  projectId: string;
  branchId: string;
  customerType: CustomerType;
  customerId: string;
}

/** A customer's purchases, parsed, with what they own now. */
export async function customerPurchases(db: Kysely<Database>, c: CustomerRef) {
  const rows = await listCustomerPurchases(db, c.projectId, c.branchId, c.customerType, c.customerId);
  return rows.map((row) => ({ row, ...purchaseForBalance(row) }));
}

/**
 * The products a customer owns at `now` (upstream `getOwnedProductsForCustomer`): active purchases, and the
 * `include-by-default` products of lines where it holds none.
 */
export async function ownedProducts(db: Kysely<Database>, model: PaymentsModel, c: CustomerRef, now: number) {
  const purchases = (await customerPurchases(db, c)).filter((p) => isActivePurchase(p, now));
  const lines = new Set(purchases.map((p) => p.product.productLineId).filter((l): l is string => l !== undefined));
  return {
    purchases,
    defaults: defaultProducts(model, c.customerType, lines),
  };
}

/**
 * Checks a purchase may happen (upstream `validatePurchaseSession`): the customer exists, the
 * price exists, quantity 1 unless stackable, not already owned unless stackable, an add-on's base
 * product is owned, no one-off purchase in the same product line.
 *
 * @returns the selected price and the active subscriptions of the same line the purchase replaces.
 * @throws USER_NOT_FOUND / TEAM_NOT_FOUND, PRODUCT_ALREADY_GRANTED, plain 400s.
 */
export async function checkPurchase(
  db: Kysely<Database>,
  model: PaymentsModel,
  c: CustomerRef,
  productId: string | null,
  product: ProductConfig,
  priceId: string | undefined,
  quantity: number,
  now: number,
  paid = false,
) {
  // `paid`: Stripe already took the money (a completed checkout); record it whatever changed since.
  if (!paid) await ensureCustomerExists(db, c.projectId, c.customerType, c.customerId);
  const selected = paid ? (safeSelectPrice(product, priceId) ?? selectPrice(product, undefined)) : selectPrice(product, priceId);
  if (!paid && quantity !== 1 && !product.stackable)
    throw paymentsPlainError.badRequest('This product is not stackable; quantity must be 1');
  const { purchases } = await ownedProducts(db, model, c, now);
  if (!paid && productId !== null && !product.stackable && purchases.some((p) => p.row.product_id === productId)) {
    throw new KnownError('PRODUCT_ALREADY_GRANTED', { product_id: productId, customer_id: c.customerId });
  }
  const addOnTo = product.isAddOnTo === false ? [] : Object.keys(product.isAddOnTo);
  if (!paid && addOnTo.length > 0 && !purchases.some((p) => p.row.product_id !== null && addOnTo.includes(p.row.product_id))) {
    throw paymentsPlainError.badRequest('This product is an add-on to a product that the customer does not have');
  }
  const line = product.productLineId;
  let replaces: PurchaseRow[] = [];
  if (line !== undefined) {
    if (!paid && purchases.some((p) => p.kind === 'one_time' && p.product.productLineId === line)) {
      throw paymentsPlainError.badRequest('Customer already has a one-time purchase in this product line');
    }
    replaces = purchases
      .filter(
        (p) =>
          p.kind === 'subscription' &&
          p.status !== 'canceled' &&
          p.product.productLineId === line &&
          !(p.row.product_id !== null && addOnTo.includes(p.row.product_id)),
      )
      .map((p) => p.row);
  }
  return { selected, replaces };
}

function safeSelectPrice(product: ProductConfig, priceId: string | undefined) {
  try {
    return selectPrice(product, priceId);
  } catch {
    return null;
  }
}

/** How a purchase came about, and its Stripe references when paid through Stripe. */
export interface GrantSource {
  creationSource: 'PURCHASE_PAGE' | 'TEST_MODE' | 'API_GRANT';
  testMode: boolean;
  stripe?: {
    customerId: string | null;
    checkoutSessionId: string | null;
    subscriptionId: string | null;
    paymentIntentId: string | null;
    periodStart: number | null;
    periodEnd: number | null;
    status: string | null;
  };
}

/**
 * Grants a product to a customer, in the caller's transaction (upstream `grantProductToCustomer`):
 * takes the customer's purchase lock (concurrent grants run one after another), checks the purchase, ends the subscriptions of the same product line it replaces (returned, so
 * the caller can cancel their Stripe side after commit), and records the purchase with the price
 * **read from config** (currency and amount per unit; never from the request). Items the product
 * includes count from then on (core/payments/balance.ts).
 *
 * @returns the new purchase id (null when the product has no price: nothing to record) and the replaced purchases.
 */
export async function grantProduct(
  db: Kysely<Database>,
  model: PaymentsModel,
  c: CustomerRef,
  args: {
    productId: string | null;
    product: ProductConfig;
    priceId: string | undefined;
    quantity: number;
    source: GrantSource;
    now: number;
    paid?: boolean;
  },
): Promise<{ purchaseId: string | null; subscription: boolean; replaced: PurchaseRow[] }> {
  await lockCustomerPurchases(db, c, args.now);
  const { selected, replaces } = await checkPurchase(
    db,
    model,
    c,
    args.productId,
    args.product,
    args.priceId,
    args.quantity,
    args.now,
    args.paid ?? false,
  );
  for (const r of replaces) {
    await updatePurchase(db, c.projectId, r.id, {
      status: 'canceled',
      current_period_end: args.now,
      cancel_at_period_end: true,
      updated_at: args.now,
    });
  }
  if (!selected) return { purchaseId: null, subscription: false, replaced: replaces };
  const charge = chargeOf(selected.price);
  const interval = selected.price.interval;
  const stripe = args.source.stripe;
  const id = uuid();
  await insertPurchase(db, {
    id,
    project_id: c.projectId,
    branch_id: c.branchId,
    customer_type: c.customerType,
    customer_id: c.customerId,
    product_id: args.productId,
    price_id: selected.priceId,
    product: JSON.stringify(productSnapshot(args.product)),
    quantity: args.quantity,
    kind: interval ? 'subscription' : 'one_time',
    status: interval ? (stripe?.status ?? 'active') : 'active',
    test_mode: args.source.testMode,
    creation_source: args.source.creationSource,
    currency: charge?.currency ?? null,
    unit_amount_minor: charge?.unitAmountMinor ?? null,
    stripe_customer_id: stripe?.customerId ?? null,
    stripe_checkout_session_id: stripe?.checkoutSessionId ?? null,
    stripe_subscription_id: stripe?.subscriptionId ?? null,
    stripe_payment_intent_id: stripe?.paymentIntentId ?? null,
    current_period_start: interval ? (stripe?.periodStart ?? args.now) : null,
    current_period_end: interval ? (stripe?.periodEnd ?? addInterval(args.now, interval)) : null,
    cancel_at_period_end: false,
    refunded_at: null,
    created_at: args.now,
    updated_at: args.now,
  });
  return { purchaseId: id, subscription: Boolean(interval), replaced: replaces };
}
