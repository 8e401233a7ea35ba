import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { StripeAccountOutput, UrlOutput } from './outputs.ts';
import type { Runtime } from '../runtime.ts';
import { deleteStripeAccount, upsertStripeAccount } from './queries.ts';
import { connectedStripe, requireConnectedStripe, sealStripeSecret, secretKeyHint, stripeClient } from './stripe-account.ts';
import { paymentsPlainError } from './plain-errors.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/** The URL to give Stripe as the webhook endpoint of a project and branch. */
export function stripeWebhookUrl(runtime: Runtime, projectId: string, branchId: string): string {
  return `${runtime.baseUrl}${API_PREFIX}/integrations/stripe/webhooks?project_id=${encodeURIComponent(projectId)}${branchId === 'main' ? '' : `&branch_id=${encodeURIComponent(branchId)}`}`;
}

/** The account facts the dashboard shows (upstream's account-info fields plus Gatehouse's). */
async function accountInfo(
  runtime: Runtime,
  connected: Awaited<ReturnType<typeof requireConnectedStripe>>,
  projectId: string,
  branchId: string,
) {
  const account = await connected.stripe.accounts.retrieveCurrent();
  return {
    account_id: account.id,
    charges_enabled: account.charges_enabled ?? false,
    details_submitted: account.details_submitted ?? false,
    payouts_enabled: account.payouts_enabled ?? false,
    secret_key_hint: connected.secretKeyHint,
    webhook_configured: connected.webhookSecret !== null,
    webhook_url: stripeWebhookUrl(runtime, projectId, branchId),
  };
}

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
  errors: ['STRIPE_ACCOUNT_INFO_NOT_FOUND'],
  async run(ctx) {
    const connected = await requireConnectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    return accountInfo(ctx.runtime, connected, ctx.auth.project.id, ctx.auth.branchId);
  },
});

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
  errors: ['STRIPE_ACCOUNT_INFO_NOT_FOUND'],
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

/** Forgets the Stripe keys of the current branch (admin access). */
export const deleteStripeKeys = defineOperation({
  id: 'payments.deleteStripeKeys',
  method: 'DELETE',
  path: '/internal/payments/stripe/keys',
  summary: "Disconnect the project's Stripe account.",
  access: ['admin'],
  input: {},
  ignoresBody: true,
  output: SuccessOutput,
  errors: [],
  async run(ctx) {
    await deleteStripeAccount(ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    return { success: true };
  },
});

/**
 * The SDK's `setupPayments` (admin access): upstream starts Stripe Connect onboarding and answers
 * its link; Gatehouse connects the project's own account instead, so the answered `url` is the dashboard page where the keys are entered.
 *
 * @see upstream `internal/payments/setup/route.ts`
 */
export const setupPayments = defineOperation({
  id: 'payments.setup',
  method: 'POST',
  path: '/internal/payments/setup',
  summary: "Where to connect the project's Stripe account.",
  access: ['admin'],
  input: { body: v.optional(v.strictObject({})) },
  output: UrlOutput,
  errors: [],
  async run(ctx) {
    return { url: `${ctx.runtime.baseUrl}/projects/${encodeURIComponent(ctx.auth.project.id)}/payments` };
  },
});
