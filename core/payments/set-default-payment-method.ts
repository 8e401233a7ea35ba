import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { CUSTOMER_CARD_ERRORS, ensureCallerCanAccessCustomer, ensureCustomerExists } from './customers.ts';
import { BillingOutput } from './outputs.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { BillingCustomerParamsSchema } from './schemas.ts';
import { requireConnectedStripe } from './stripe-account.ts';
import { defaultCardSummary, ensureStripeCustomerId } from './stripe-customer.ts';
import { customerOf, FORBIDDEN_PAYMENT_METHOD } from './payment-method-customer.ts';

/**
 * Makes the card of a succeeded SetupIntent the customer's default (client for itself, server,
 * admin): recorded in the Stripe customer's metadata and `invoice_settings.default_payment_method`.
 * Answers `{ success: true, default_payment_method }` (the billing card summary).
 *
 * @throws a plain 403 "Setup intent does not belong to this customer."; a plain 400 "Setup intent
 * has not succeeded." (or without a payment method); STRIPE_ACCOUNT_INFO_NOT_FOUND.
 * @see upstream `payments/payment-method/[customer_type]/[customer_id]/set-default/route.ts`
 */
export const setDefaultPaymentMethod = defineOperation({
  id: 'payments.setDefaultPaymentMethod',
  method: 'POST',
  path: '/payments/payment-method/:customer_type/:customer_id/set-default',
  summary: "Make a saved card the customer's default payment method.",
  access: ['client', 'server', 'admin'],
  input: {
    params: BillingCustomerParamsSchema,
    body: v.strictObject({ setup_intent_id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(256)) }),
  },
  output: v.strictObject({ success: v.literal(true), default_payment_method: BillingOutput.entries.default_payment_method }),
  errors: CUSTOMER_CARD_ERRORS,
  async run(ctx, { params, body }) {
    await ensureCallerCanAccessCustomer(ctx.db, ctx.auth, params.customer_type, params.customer_id, FORBIDDEN_PAYMENT_METHOD);
    const c = customerOf(ctx.auth, params);
    await ensureCustomerExists(ctx.db, c.projectId, c.customerType, c.customerId);
    const { stripe } = await requireConnectedStripe(ctx.runtime, ctx.db, c.projectId, c.branchId);
    const intent = await stripe.setupIntents.retrieve(body.setup_intent_id);
    const customer = await ensureStripeCustomerId(ctx.db, c, stripe);
    const intentCustomer = typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null);
    if (intentCustomer !== null && intentCustomer !== customer) {
      throw paymentsPlainError.forbidden('Setup intent does not belong to this customer.');
    }
    if (intent.status !== 'succeeded') throw paymentsPlainError.badRequest('Setup intent has not succeeded.');
    const pm = typeof intent.payment_method === 'string' ? intent.payment_method : (intent.payment_method?.id ?? null);
    if (pm === null) throw paymentsPlainError.badRequest('Setup intent missing payment method.');
    await stripe.customers.update(customer, {
      metadata: {
        customerId: c.customerId,
        customerType: c.customerType.toUpperCase(),
        defaultPaymentMethodId: pm,
        default_payment_method_id: pm,
        hasPaymentMethod: 'true',
      },
      invoice_settings: { default_payment_method: pm },
    });
    return { success: true as const, default_payment_method: await defaultCardSummary(stripe, customer) };
  },
});
