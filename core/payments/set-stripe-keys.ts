import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StripeAccountOutput } from './outputs.ts';
import { upsertStripeAccount } from './queries.ts';
import { connectedStripe, requireConnectedStripe, sealStripeSecret, secretKeyHint, stripeClient } from './stripe-account.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { accountInfo } from './stripe-connection.ts';

/**
 * Stores the project's Stripe secret key (and optionally its webhook signing secret) for the
 * current branch, sealed, after checking the key with Stripe's account endpoint, answering the
 * account info (admin access; Gatehouse: "connect your own Stripe account"). The secret key is
 * `sk_…` or `rk_…`; leaving `webhook_secret` out keeps the stored one. A key Stripe refuses is a
 * plain 400.
 */
export const setStripeKeys = defineOperation({
  id: 'payments.setStripeKeys',
  method: 'PUT',
  path: '/internal/payments/stripe/keys',
  summary: "Connect the project's own Stripe account.",
  access: ['admin'],
  input: {
    body: v.strictObject({
      secret_key: v.pipe(
        v.string(),
        v.regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]{4,250}$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)'),
      ),
      webhook_secret: v.optional(
        v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/=_-]{4,250}$/, 'must be a Stripe webhook signing secret (whsec_…)')),
      ),
    }),
  },
  output: StripeAccountOutput,
  errors: ['STRIPE_ACCOUNT_INFO_NOT_FOUND', 'STRIPE_UNAVAILABLE'],
  async run(ctx, { body }) {
    const { id: projectId } = ctx.auth.project;
    const branchId = ctx.auth.branchId;
    let accountId: string;
    try {
      accountId = (await (await stripeClient(ctx.runtime, body.secret_key)).accounts.retrieveCurrent()).id;
    } catch (error) {
      throw paymentsPlainError.badRequest(`Stripe did not accept this key: ${(error as Error).message}`);
    }
    const previous = await connectedStripe(ctx.runtime, ctx.db, projectId, branchId);
    const webhookSecret = body.webhook_secret ?? previous?.webhookSecret ?? null;
    await upsertStripeAccount(ctx.db, {
      project_id: projectId,
      branch_id: branchId,
      secret_key_sealed: sealStripeSecret(ctx.runtime, projectId, branchId, 'secret_key', body.secret_key),
      secret_key_hint: secretKeyHint(body.secret_key),
      webhook_secret_sealed:
        webhookSecret === null ? null : sealStripeSecret(ctx.runtime, projectId, branchId, 'webhook_secret', webhookSecret),
      account_id: accountId,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    const connected = await requireConnectedStripe(ctx.runtime, ctx.db, projectId, branchId);
    return accountInfo(ctx.runtime, connected, projectId, branchId);
  },
});
