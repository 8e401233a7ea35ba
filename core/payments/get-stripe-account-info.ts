import { defineOperation } from '../operations/define.ts';
import { StripeAccountOutput } from './outputs.ts';
import { requireConnectedStripe } from './stripe-account.ts';
import { accountInfo } from './stripe-connection.ts';

/**
 * Reads the connected Stripe account (admin access): upstream's fields plus `secret_key_hint`,
 * `webhook_configured` and `webhook_url` (never a key or secret). Without a connected account
 * it fails, and the SDK then returns null.
 *
 * @see upstream `internal/payments/stripe/account-info/route.ts`
 */
export const getStripeAccountInfo = defineOperation({
  id: 'payments.stripeAccountInfo',
  method: 'GET',
  path: '/internal/payments/stripe/account-info',
  summary: 'Describe the connected Stripe account.',
  access: ['admin'],
  input: {},
  output: StripeAccountOutput,
  errors: ['STRIPE_ACCOUNT_INFO_NOT_FOUND', 'STRIPE_UNAVAILABLE'],
  async run(ctx) {
    const connected = await requireConnectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    return accountInfo(ctx.runtime, connected, ctx.auth.project.id, ctx.auth.branchId);
  },
});
