import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { ensureCallerCanAccessCustomer } from './customers.ts';
import { customerPurchases } from './grant.ts';
import { isActivePurchase } from './balance.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { updatePurchase } from './queries.ts';
import { connectedStripe } from './stripe-account.ts';
import { CustomerTypeSchema } from './schemas.ts';

/**
 * Cancels the customer's active subscription to the product (client for itself, server, admin;
 * the SDK's `cancelSubscription`, the account-settings "Cancel" button).
 * Paid through Stripe: Stripe cancels it at the period's end (`cancel_at_period_end`), access lasts
 * until then, and `customer.subscription.deleted` ends it. Test-mode and granted subscriptions end
 * at once.
 * A plain 404 when the customer has no such active subscription.
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
  errors: ['USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED'],
  async run(ctx, { params, query }) {
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      params.customer_type,
      params.customer_id,
      'Clients can only cancel their own user or team subscriptions.',
    );
    const customer = {
      projectId: ctx.auth.project.id,
      branchId: ctx.auth.branchId,
      customerType: params.customer_type,
      customerId: params.customer_id,
    };
    const target = (await customerPurchases(ctx.db, customer)).find(
      (p) =>
        p.kind === 'subscription' &&
        isActivePurchase(p) &&
        p.row.product_id === params.product_id &&
        (query.subscription_id === undefined || p.row.id === query.subscription_id),
    );
    if (!target) throw paymentsPlainError.notFound('No active subscription to this product.');
    if (target.row.stripe_subscription_id !== null) {
      const connected = await connectedStripe(ctx.runtime, ctx.db, customer.projectId, customer.branchId);
      if (!connected) throw paymentsPlainError.badRequest('The Stripe account of this subscription is not connected.');
      await connected.stripe.subscriptions.update(target.row.stripe_subscription_id, { cancel_at_period_end: true });
      await updatePurchase(ctx.db, customer.projectId, target.row.id, { cancel_at_period_end: true, updated_at: ctx.now });
    } else {
      await updatePurchase(ctx.db, customer.projectId, target.row.id, {
        status: 'canceled',
        cancel_at_period_end: true,
        current_period_end: ctx.now,
        updated_at: ctx.now,
      });
    }
    return { success: true };
  },
});
