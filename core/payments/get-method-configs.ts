import { defineOperation } from '../operations/define.ts';
import { MethodConfigsOutput } from './outputs.ts';
import { isKnownPaymentMethod, nameCompare, PAYMENT_METHOD_NAMES } from './payment-methods.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { requireConnectedStripe } from './stripe-account.ts';

/** Keys of a Stripe payment method configuration that are not payment methods. */
const METADATA_KEYS = new Set(['id', 'object', 'active', 'application', 'is_default', 'livemode', 'name', 'parent']);

type MethodSetting = { available?: boolean; display_preference?: { overridable?: boolean | null; value?: string } };

/**
 * The payment methods Stripe Checkout offers for the project's Stripe account (admin; the
 * dashboard's payment-methods page), read from its payment method configurations
 * (`GET /v1/payment_method_configurations`): the one a platform manages (`application` or
 * `parent` set), else the default one. Answers `{ config_id, methods }`, each method
 * `{ id, name, enabled, available, overridable }` (`enabled`: what Stripe shows now), the methods
 * upstream knows only, available ones first, then by name.
 *
 * @throws STRIPE_ACCOUNT_INFO_NOT_FOUND while no Stripe account is connected; a plain 400 when the
 * account has no payment method configuration.
 * @see upstream `internal/payments/method-configs/route.ts` (GET)
 */
export const getMethodConfigs = defineOperation({
  id: 'payments.getMethodConfigs',
  method: 'GET',
  path: '/internal/payments/method-configs',
  summary: "The payment methods of the project's Stripe account.",
  access: ['admin'],
  input: {},
  output: MethodConfigsOutput,
  errors: ['STRIPE_ACCOUNT_INFO_NOT_FOUND', 'STRIPE_UNAVAILABLE'],
  async run(ctx) {
    const { stripe } = await requireConnectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    const configs = (await stripe.paymentMethodConfigurations.list({})).data;
    const config = configs.find((c) => c.application || c.parent) ?? configs.find((c) => c.is_default);
    if (!config) throw paymentsPlainError.badRequest('No payment method configuration found for the Stripe account.');
    const methods = Object.entries(config as unknown as Record<string, unknown>)
      .filter(([key, value]) => !METADATA_KEYS.has(key) && typeof value === 'object' && value !== null && 'display_preference' in value)
      .filter(([key]) => isKnownPaymentMethod(key))
      .map(([id, value]) => {
        const setting = value as MethodSetting;
        return {
          id,
          name: PAYMENT_METHOD_NAMES[id]!,
          enabled: setting.display_preference?.value === 'on',
          available: setting.available ?? false,
          overridable: setting.display_preference?.overridable ?? false,
        };
      })
      .sort((a, b) => (a.available !== b.available ? (b.available ? 1 : -1) : nameCompare(a.name, b.name)));
    return { config_id: config.id, methods };
  },
});
