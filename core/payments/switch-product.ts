import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { ensureCallerCanAccessCustomer, ensureCustomerExists } from './customers.ts';
import { ownedProducts, type CustomerRef } from './grant.ts';
import { loadPaymentsModel, toMinorUnits, type PaymentsModel } from './model.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { productSnapshot } from './products.ts';
import { updatePurchase } from './queries.ts';
import { BillingCustomerParamsSchema } from './schemas.ts';
import { connectedStripe } from './stripe-account.ts';
import { defaultCardSummary, stripeCustomerIdOf } from './stripe-customer.ts';

const bad = paymentsPlainError.badRequest;
const Id = v.pipe(v.string(), v.nonEmpty(), v.maxLength(256));

/** The configuration checks upstream makes before it looks at the customer, in its order. */
function checkSwitchable(model: PaymentsModel, customerType: string, fromId: string, toId: string) {
  const from = Object.hasOwn(model.products, fromId) ? model.products[fromId] : undefined;
  const to = Object.hasOwn(model.products, toId) ? model.products[toId] : undefined;
  if (!from || !to) throw bad('Product not found.');
  if (from.customerType !== customerType || to.customerType !== customerType) throw bad('Product customer type does not match.');
  if (!from.productLineId || from.productLineId !== to.productLineId) throw bad('Products must be in the same product line to switch.');
  if (fromId === toId) throw bad('Product is already active.');
  if (to.isAddOnTo !== false) throw bad('Add-on products cannot be selected for plan switching.');
  if (to.prices === 'include-by-default') throw bad('Include-by-default products cannot be selected for plan switching.');
  if (from.prices !== 'include-by-default' && !Object.values(from.prices).some((p) => p.interval !== undefined)) {
    throw bad('This subscription cannot be switched.');
  }
  return { from, to: { ...to, prices: to.prices } };
}

/**
 * Switches a customer's Stripe subscription from one product to another of the same product line
 * (client for itself, server, admin; the SDK's `switchSubscription`): Stripe's subscription item
 * gets the target's recurring price (USD) on the customer's default card, and the purchase row
 * takes the new product, price and quantity. Answers `{ success: true }`.
 *
 * @throws NEW_PURCHASES_BLOCKED; plain 400s as upstream ("Product not found.", "Products must be in
 * the same product line to switch.", "This subscription cannot be switched." for a subscription not
 * paid through Stripe, "Customer already has a one-time purchase in this product line", "Price not
 * found for target product.", …); DEFAULT_PAYMENT_METHOD_REQUIRED without a Stripe customer or card;
 * STRIPE_CARD_DECLINED (402) when Stripe declines the card for the change's charge (nothing changes).
 * @see upstream `payments/products/[customer_type]/[customer_id]/switch/route.ts`
 */
export const switchProduct = defineOperation({
  id: 'payments.switchProduct',
  method: 'POST',
  path: '/payments/products/:customer_type/:customer_id/switch',
  summary: "Switch a customer's subscription to another product of its product line.",
  access: ['client', 'server', 'admin'],
  input: {
    params: BillingCustomerParamsSchema,
    body: v.strictObject({
      from_product_id: Id,
      to_product_id: Id,
      price_id: v.optional(Id),
      quantity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    }),
  },
  output: SuccessOutput,
  errors: [
    'STRIPE_UNAVAILABLE',
    'STRIPE_CARD_DECLINED',
    'NEW_PURCHASES_BLOCKED',
    'USER_NOT_FOUND',
    'TEAM_NOT_FOUND',
    'USER_AUTHENTICATION_REQUIRED',
    'TEAM_PERMISSION_REQUIRED',
    'DEFAULT_PAYMENT_METHOD_REQUIRED',
  ],
  async run(ctx, { params, body }) {
    const model = await loadPaymentsModel(ctx);
    if (model.blockNewPurchases) throw new KnownError('NEW_PURCHASES_BLOCKED');
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      params.customer_type,
      params.customer_id,
      'Clients can only manage their own subscriptions.',
    );
    const { from, to } = checkSwitchable(model, params.customer_type, body.from_product_id, body.to_product_id);
    await ensureCustomerExists(ctx.db, ctx.auth.project.id, params.customer_type, params.customer_id);
    const c: CustomerRef = {
      projectId: ctx.auth.project.id,
      branchId: ctx.auth.branchId,
      customerType: params.customer_type,
      customerId: params.customer_id,
    };
    const owned = await ownedProducts(ctx.db, model, c, ctx.now);
    const isActiveSub = (p: (typeof owned.purchases)[number]) =>
      p.kind === 'subscription' && (p.status === 'active' || p.status === 'trialing');
    if (owned.purchases.some((p) => p.product.productLineId === from.productLineId && p.quantity > 0 && !isActiveSub(p))) {
      throw bad('Customer already has a one-time purchase in this product line');
    }
    // Switching away from an include-by-default product (upstream's deprecated path) is not offered.
    const existing = owned.purchases.find((p) => p.row.product_id === body.from_product_id && isActiveSub(p));
    if (!existing || existing.row.stripe_subscription_id === null) throw bad('This subscription cannot be switched.');

    const recurring = Object.entries(to.prices).filter(([, p]) => p.interval !== undefined);
    if (recurring.length === 0) throw bad('Price not found for target product.');
    const priceId = body.price_id ?? recurring[0]![0];
    const price = recurring.find(([id]) => id === priceId)?.[1];
    if (!price?.interval) throw bad('Price not found for target product.');
    const usd = price.amounts.USD === undefined ? null : toMinorUnits(price.amounts.USD, 'USD');
    if (usd === null) throw bad('Target price must include a USD amount.');
    const quantity = body.quantity ?? existing.quantity;
    if (body.quantity !== undefined && quantity !== 1 && !to.stackable) throw bad('This product is not stackable; quantity must be 1');

    const connected = await connectedStripe(ctx.runtime, ctx.db, c.projectId, c.branchId);
    if (!connected) throw bad('The Stripe account of this subscription is not connected.');
    const stripe = connected.stripe;
    const stripeCustomerId = existing.row.stripe_customer_id ?? (await stripeCustomerIdOf(ctx.db, c, stripe));
    const card = stripeCustomerId === null ? null : await defaultCardSummary(stripe, stripeCustomerId);
    if (!card) throw new KnownError('DEFAULT_PAYMENT_METHOD_REQUIRED', { customer_type: c.customerType, customer_id: c.customerId });

    const stripeProduct = await stripe.products.create({ name: to.displayName || 'Subscription' });
    const current = await stripe.subscriptions.retrieve(existing.row.stripe_subscription_id);
    const item = current.items.data[0];
    if (!item) throw bad('This subscription cannot be switched.');
    const updated = await stripe.subscriptions.update(existing.row.stripe_subscription_id, {
      payment_behavior: 'error_if_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      default_payment_method: card.id,
      items: [
        {
          id: item.id,
          price_data: {
            currency: 'usd',
            unit_amount: usd,
            product: stripeProduct.id,
            recurring: { interval_count: price.interval[0], interval: price.interval[1] },
          },
          quantity,
        },
      ],
      metadata: { productId: body.to_product_id, priceId },
    });
    await updatePurchase(ctx.db, c.projectId, existing.row.id, {
      product_id: body.to_product_id,
      product: JSON.stringify(productSnapshot(to)),
      price_id: priceId,
      quantity,
      currency: 'USD',
      unit_amount_minor: usd,
      status: updated.status,
      cancel_at_period_end: updated.cancel_at_period_end,
      updated_at: ctx.now,
    });
    return { success: true };
  },
});
