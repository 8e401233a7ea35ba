import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { KnownError } from '../errors/index.ts';
import { ensureCallerCanAccessCustomer, ensureCustomerExists } from './customers.ts';
import { loadPaymentsModel } from './model.ts';
import { resolveProduct } from './products.ts';
import { customerPurchases } from './grant.ts';
import { isActivePurchase } from './balance.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { updatePurchase } from './queries.ts';
import { connectedStripe } from './stripe-account.ts';
import { CustomerTypeSchema } from './schemas.ts';
import { queueStripeChange } from './stripe-outbox.ts';

/**
 * Cancels the customer's active subscriptions to the product, every one of them (client for
 * itself, server, admin; the SDK's `cancelSubscription`, the account-settings "Cancel" button), as
 * upstream: one paid through Stripe is canceled in Stripe at once (`DELETE /v1/subscriptions/{id}`)
 * and ends now — the Stripe call goes through the Stripe outbox (stripe-outbox.ts: recorded in the
 * transaction that ends it, attempted right after commit, retried until Stripe has it), so a
 * Stripe failure never leaves the customer billed for a subscription Gatehouse ended; a granted or test-mode one is marked canceled and stays owned until its current
 * period ends (listed as `one_time` with `subscription: null` meanwhile).
 * Plain 400s as upstream: "Customer does not have this product.", "This product is a one time purchase
 * and cannot be canceled.", "No active subscription found with this ID for the given customer.";
 * plain 403 "Clients can only cancel their own subscriptions." for another user's.
 *
 * @see upstream `payments/products/[customer_type]/[customer_id]/[product_id]/route.ts` (DELETE)
 */
export const cancelSubscription = defineOperation({
  id: 'payments.cancelSubscription',
  method: 'DELETE',
  path: '/payments/products/:customer_type/:customer_id/:product_id',
  summary: "Cancel a customer's subscription to a product.",
  access: ['client', 'server', 'admin'],
  input: {
    params: v.strictObject({
      customer_type: CustomerTypeSchema,
      customer_id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(256)),
      product_id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(256)),
    }),
    query: v.strictObject({ subscription_id: v.optional(v.pipe(v.string(), v.maxLength(256))) }),
    body: v.optional(v.strictObject({})),
  },
  output: SuccessOutput,
  errors: [
    'STRIPE_UNAVAILABLE',
    'USER_AUTHENTICATION_REQUIRED',
    'TEAM_PERMISSION_REQUIRED',
    'USER_NOT_FOUND',
    'TEAM_NOT_FOUND',
    'PRODUCT_DOES_NOT_EXIST',
    'PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH',
  ],
  async run(ctx, { params, query }) {
    if (ctx.auth.accessType === 'client' && ctx.auth.user && params.customer_type === 'custom') {
      throw paymentsPlainError.forbidden('Clients can only cancel user or team subscriptions they control.');
    }
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      params.customer_type,
      params.customer_id,
      'Clients can only cancel their own subscriptions.',
    );
    const customer = {
      projectId: ctx.auth.project.id,
      branchId: ctx.auth.branchId,
      customerType: params.customer_type,
      customerId: params.customer_id,
    };
    await ensureCustomerExists(ctx.db, customer.projectId, customer.customerType, customer.customerId);
    const purchases = await customerPurchases(ctx.db, customer);
    const isActiveSub = (p: (typeof purchases)[number]) => p.kind === 'subscription' && (p.status === 'active' || p.status === 'trialing');
    let targets: typeof purchases;
    if (query.subscription_id !== undefined && query.subscription_id !== '') {
      targets = purchases.filter((p) => p.row.id === query.subscription_id && isActiveSub(p));
      if (targets.length === 0) throw paymentsPlainError.badRequest('No active subscription found with this ID for the given customer.');
    } else {
      const model = await loadPaymentsModel(ctx);
      const { product } = resolveProduct(model, ctx.auth.accessType, params.product_id, undefined);
      if (product.customerType !== params.customer_type) {
        throw new KnownError('PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH', {
          product_id: params.product_id,
          customer_id: params.customer_id,
          product_customer_type: product.customerType,
          actual_customer_type: params.customer_type,
        });
      }
      const owned = purchases.filter((p) => p.row.product_id === params.product_id && isActivePurchase(p, ctx.now) && p.quantity > 0);
      if (owned.length === 0) throw paymentsPlainError.badRequest('Customer does not have this product.');
      targets = owned.filter(isActiveSub);
      if (targets.length === 0) throw paymentsPlainError.badRequest('This product is a one time purchase and cannot be canceled.');
    }
    const viaStripe = targets.some((t) => t.row.stripe_subscription_id !== null);
    if (viaStripe && !(await connectedStripe(ctx.runtime, ctx.db, customer.projectId, customer.branchId))) {
      throw paymentsPlainError.badRequest('The Stripe account of this subscription is not connected.');
    }
    await ctx.transaction(async (tx) => {
      for (const target of targets) {
        await updatePurchase(
          tx.db,
          customer.projectId,
          target.row.id,
          target.row.stripe_subscription_id !== null
            ? { status: 'canceled', current_period_end: ctx.now, updated_at: ctx.now }
            : { status: 'canceled', cancel_at_period_end: true, updated_at: ctx.now },
        );
      }
      await queueStripeChange(
        tx,
        targets.map((t) => t.row),
        { action: 'cancel' },
      );
    });
    return { success: true };
  },
});
