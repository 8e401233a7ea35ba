import * as v from 'valibot';
import { API_PREFIX } from '../operations/api-path.ts';
import { defineOperation } from '../operations/define.ts';
import { schemaError } from '../operations/validation.ts';
import { isKnownPaymentMethod, PAYMENT_METHOD_NAMES } from './payment-methods.ts';
import { requireConnectedStripe } from './stripe-account.ts';

/**
 * Turns payment methods on or off for Stripe Checkout on the project's Stripe account (admin; the
 * dashboard's payment-methods page): `{ config_id, updates: { <method id>: "on" | "off" } }` becomes
 * each method's `display_preference.preference` in
 * `POST /v1/payment_method_configurations/{config_id}`. No updates: `{ success: true }` without a
 * Stripe call.
 *
 * @throws SCHEMA_ERROR in upstream's words for a method id it does not know or a value other than
 * `on` / `off`; STRIPE_ACCOUNT_INFO_NOT_FOUND while no Stripe account is connected.
 * @see upstream `internal/payments/method-configs/route.ts` (PATCH)
 */
export const updateMethodConfigs = defineOperation({
  id: 'payments.updateMethodConfigs',
  method: 'PATCH',
  path: '/internal/payments/method-configs',
  summary: "Turn payment methods of the project's Stripe account on or off.",
  access: ['admin'],
  input: {
    body: v.strictObject({
      config_id: v.pipe(v.string(), v.maxLength(256)),
      updates: v.record(v.pipe(v.string(), v.maxLength(64)), v.unknown()),
    }),
  },
  output: v.strictObject({ success: v.boolean() }),
  errors: ['STRIPE_ACCOUNT_INFO_NOT_FOUND', 'SCHEMA_ERROR', 'STRIPE_UNAVAILABLE'],
  async run(ctx, { body }) {
    const problem = (values: string) =>
      schemaError('PATCH', `${API_PREFIX}/internal/payments/method-configs`, [
        `body.updates must be one of the following values: ${values}`,
      ]);
    const updates: Record<string, { display_preference: { preference: 'on' | 'off' } }> = {};
    for (const [id, preference] of Object.entries(body.updates)) {
      if (!isKnownPaymentMethod(id)) throw problem(Object.keys(PAYMENT_METHOD_NAMES).join(', '));
      if (preference !== 'on' && preference !== 'off') throw problem('on, off');
      updates[id] = { display_preference: { preference } };
    }
    if (Object.keys(updates).length === 0) return { success: true };
    const { stripe } = await requireConnectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    await stripe.paymentMethodConfigurations.update(body.config_id, updates);
    return { success: true };
  },
});
