import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { connectedStripe } from './stripe-account.ts';

/**
 * A Stripe Connect embedded-components session for the dashboard's payments pages (admin):
 * `POST /v1/account_sessions` for the connected account with the payments (refunds, disputes,
 * capture), notification-banner and payouts components enabled, as upstream asks for them.
 * Answers `{ client_secret }`.
 *
 * @throws a plain 400 "Stripe account ID is not set" while no account is connected.
 * @see upstream `internal/payments/stripe-widgets/account-session/route.ts`
 */
export const createAccountSession = defineOperation({
  id: 'payments.createAccountSession',
  method: 'POST',
  path: '/internal/payments/stripe-widgets/account-session',
  summary: "A Stripe embedded-components session for the project's account.",
  access: ['admin'],
  input: { body: v.optional(v.strictObject({})) },
  output: v.strictObject({ client_secret: v.string() }),
  errors: ['STRIPE_UNAVAILABLE'],
  async run(ctx) {
    const connected = await connectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    if (!connected?.accountId) throw paymentsPlainError.badRequest('Stripe account ID is not set');
    const session = await connected.stripe.accountSessions.create({
      account: connected.accountId,
      components: {
        payments: { enabled: true, features: { refund_management: true, dispute_management: true, capture_payments: true } },
        notification_banner: { enabled: true },
        payouts: {
          enabled: true,
          features: { instant_payouts: true, standard_payouts: true, edit_payout_schedule: true, external_account_collection: true },
        },
      },
    });
    return { client_secret: session.client_secret };
  },
});
