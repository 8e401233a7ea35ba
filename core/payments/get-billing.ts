import { defineOperation } from '../operations/define.ts';
import { ensureCallerCanAccessCustomer } from './customers.ts';
import { BillingOutput } from './outputs.ts';
import { BillingCustomerParamsSchema } from './schemas.ts';
import { connectedStripe } from './stripe-account.ts';
import { defaultCardSummary, stripeCustomerIdOf } from './stripe-customer.ts';

/**
 * A customer's billing state (client for itself, server, admin): `has_customer` (it has a Stripe
 * customer) and `default_payment_method` (`{ id, brand, last4, exp_month, exp_year }` or null).
 * `{ has_customer: false, default_payment_method: null }` while no Stripe account is connected.
 *
 * @see upstream `payments/billing/[customer_type]/[customer_id]/route.ts`
 */
export const getBilling = defineOperation({
  id: 'payments.getBilling',
  method: 'GET',
  path: '/payments/billing/:customer_type/:customer_id',
  summary: "A customer's billing state and default card.",
  access: ['client', 'server', 'admin'],
  input: {
    params: BillingCustomerParamsSchema,
  },
  output: BillingOutput,
  errors: ['USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED', 'STRIPE_UNAVAILABLE'],
  async run(ctx, { params }) {
    await ensureCallerCanAccessCustomer(
      ctx.db,
      ctx.auth,
      params.customer_type,
      params.customer_id,
      'Clients can only manage their own billing.',
    );
    const none = { has_customer: false, default_payment_method: null };
    const connected = await connectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    if (!connected) return none;
    const customerId = await stripeCustomerIdOf(
      ctx.db,
      {
        projectId: ctx.auth.project.id,
        branchId: ctx.auth.branchId,
        customerType: params.customer_type,
        customerId: params.customer_id,
      },
      connected.stripe,
    );
    if (customerId === null) return none;
    return { has_customer: true, default_payment_method: await defaultCardSummary(connected.stripe, customerId) };
  },
});
