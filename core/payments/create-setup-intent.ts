import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { CUSTOMER_CARD_ERRORS, ensureCallerCanAccessCustomer, ensureCustomerExists } from './customers.ts';
import { SetupIntentOutput } from './outputs.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { BillingCustomerParamsSchema } from './schemas.ts';
import { requireConnectedStripe } from './stripe-account.ts';
import { ensureStripeCustomerId } from './stripe-customer.ts';
import { customerOf, FORBIDDEN_PAYMENT_METHOD } from './payment-method-customer.ts';

/**
 * Starts saving a card for the customer (client for itself, server, admin): a Stripe SetupIntent
 * (`usage: off_session`, cards) on the customer's Stripe customer, created when it has none.
 * Answers `{ client_secret, stripe_account_id }` for Stripe.js's card element.
 *
 * @throws STRIPE_ACCOUNT_INFO_NOT_FOUND without a connected account; a plain 400 "Payments are not
 * set up in this Stack Auth project." when the account's id is unknown.
 * @see upstream `payments/payment-method/[customer_type]/[customer_id]/setup-intent/route.ts`
 */
export const createSetupIntent = defineOperation({
  id: 'payments.createSetupIntent',
  method: 'POST',
  path: '/payments/payment-method/:customer_type/:customer_id/setup-intent',
  summary: 'Start saving a card for a customer (Stripe SetupIntent).',
  access: ['client', 'server', 'admin'],
  input: { params: BillingCustomerParamsSchema, body: v.optional(v.strictObject({})) },
  output: SetupIntentOutput,
  errors: CUSTOMER_CARD_ERRORS,
  async run(ctx, { params }) {
    await ensureCallerCanAccessCustomer(ctx.db, ctx.auth, params.customer_type, params.customer_id, FORBIDDEN_PAYMENT_METHOD);
    const c = customerOf(ctx.auth, params);
    await ensureCustomerExists(ctx.db, c.projectId, c.customerType, c.customerId);
    const { stripe, accountId } = await requireConnectedStripe(ctx.runtime, ctx.db, c.projectId, c.branchId);
    const customer = await ensureStripeCustomerId(ctx.db, c, stripe);
    const intent = await stripe.setupIntents.create({ customer, usage: 'off_session', allowed_payment_method_types: ['card'] });
    if (!intent.client_secret) throw paymentsPlainError.badRequest('No client secret returned from Stripe.');
    if (!accountId) throw paymentsPlainError.badRequest('Payments are not set up in this Stack Auth project.');
    return { client_secret: intent.client_secret, stripe_account_id: accountId };
  },
});
