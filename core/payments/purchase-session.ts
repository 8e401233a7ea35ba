import * as v from 'valibot';
import { KnownError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { PurchaseSessionOutput } from './outputs.ts';
import { checkPurchase } from './grant.ts';
import { loadPaymentsModelFor } from './model.ts';
import { chargeOf } from './products.ts';
import { openPurchaseCode } from './purchase-codes.ts';
import { purchasePageUrl } from './purchase-urls.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { requireConnectedStripe } from './stripe-account.ts';

/** Metadata keys Gatehouse puts on Stripe objects to find the purchase again in webhooks. */
export const STRIPE_METADATA = {
  project: 'gatehouse_project_id',
  branch: 'gatehouse_branch_id',
  code: 'gatehouse_purchase_code',
  price: 'gatehouse_price_id',
  quantity: 'gatehouse_quantity',
} as const;

/**
 * Starts paying for a purchase code through the project's own Stripe account (public: the hosted
 * purchase page), answering a Stripe Checkout Session (mode `payment` for one-off prices, `subscription`
 * for prices with an interval) whose line item is built from the price **in the code's product
 * snapshot** (configured on the server); the body only picks `price_id` and `quantity`. The
 * purchase is granted when Stripe reports the session completed (`/integrations/stripe/webhooks`).
 *
 * @see upstream `payments/purchases/purchase-session/route.tsx` (Stripe Elements there; Checkout here)
 */
export const purchaseSession = defineOperation({
  id: 'payments.purchaseSession',
  method: 'POST',
  path: '/payments/purchases/purchase-session',
  summary: 'Start paying for a purchase code through Stripe.',
  access: 'public',
  input: {
    body: v.strictObject({
      full_code: v.pipe(v.string(), v.maxLength(512)),
      price_id: v.pipe(v.string(), v.maxLength(256)),
      quantity: v.optional(
        v.pipe(
          v.number(),
          v.integer('must be an integer'),
          v.minValue(1, 'must be at least 1'),
          v.maxValue(1_000_000, 'must be at most 1000000'),
        ),
      ),
      promo_code: v.optional(v.pipe(v.string(), v.maxLength(256))),
    }),
  },
  output: PurchaseSessionOutput,
  errors: [
    'STRIPE_UNAVAILABLE',
    'VERIFICATION_CODE_NOT_FOUND',
    'VERIFICATION_CODE_EXPIRED',
    'VERIFICATION_CODE_ALREADY_USED',
    'STRIPE_ACCOUNT_INFO_NOT_FOUND',
    'NEW_PURCHASES_BLOCKED',
    'PRODUCT_ALREADY_GRANTED',
    'USER_NOT_FOUND',
    'TEAM_NOT_FOUND',
  ],
  async run(ctx, { body }) {
    const code = await openPurchaseCode(ctx.db, body.full_code, ctx.now);
    const model = await loadPaymentsModelFor(ctx, code.projectId, code.branchId);
    if (model.blockNewPurchases) throw new KnownError('NEW_PURCHASES_BLOCKED');
    const quantity = body.quantity ?? 1;
    const { selected } = await checkPurchase(ctx.db, model, code, code.productId, code.product, body.price_id, quantity, ctx.now);
    const charge = selected && chargeOf(selected.price);
    if (!selected || !charge) throw paymentsPlainError.badRequest('This product has no price that can be paid.');
    const { stripe } = await requireConnectedStripe(ctx.runtime, ctx.db, code.projectId, code.branchId);
    const metadata = {
      [STRIPE_METADATA.project]: code.projectId,
      [STRIPE_METADATA.branch]: code.branchId,
      [STRIPE_METADATA.code]: code.codeHash,
      [STRIPE_METADATA.price]: selected.priceId,
      [STRIPE_METADATA.quantity]: String(quantity),
      customerType: code.customerType,
      customerId: code.customerId,
      ...(code.productId ? { productId: code.productId } : {}),
    };
    const interval = selected.price.interval;
    const trial = selected.price.freeTrial ?? code.product.freeTrial;
    const page = purchasePageUrl(ctx.runtime, code.projectId, body.full_code, code.returnUrl);
    const session = await stripe.checkout.sessions.create({
      mode: interval ? 'subscription' : 'payment',
      line_items: [
        {
          quantity,
          price_data: {
            currency: charge.currency.toLowerCase(),
            unit_amount: charge.unitAmountMinor,
            product_data: { name: code.product.displayName },
            ...(interval ? { recurring: { interval: interval[1], interval_count: interval[0] } } : {}),
          },
        },
      ],
      success_url: code.returnUrl ?? withStatusSuccess(page),
      cancel_url: page,
      client_reference_id: code.customerId,
      metadata,
      ...(interval
        ? { subscription_data: { metadata, ...(trial && trial[1] === 'day' ? { trial_period_days: trial[0] } : {}) } }
        : { payment_intent_data: { metadata } }),
    });
    return { checkout_url: session.url ?? null, session_id: session.id, client_secret: session.client_secret ?? null };
  },
});

/** The purchase page with `status=success` added (where Stripe Checkout returns without a return URL). */
function withStatusSuccess(page: string): string {
  const url = new URL(page);
  url.searchParams.set('status', 'success');
  return url.toString();
}
