import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import type { Runtime } from '../runtime.ts';
import { deleteStripeAccount, upsertStripeAccount } from './queries.ts';
import { connectedStripe, requireConnectedStripe, sealStripeSecret, secretKeyHint, stripeClient } from './stripe-account.ts';
import { paymentsPlainError } from './plain-errors.ts';

/** The URL to give Stripe as the webhook endpoint of a project and branch. */
export function stripeWebhookUrl(runtime: Runtime, projectId: string, branchId: string): string {
  return `${runtime.baseUrl}/api/v1/integrations/stripe/webhooks?project_id=${encodeURIComponent(projectId)}${branchId === 'main' ? '' : `&branch_id=${encodeURIComponent(branchId)}`}`;
}

/** The account facts the dashboard shows (upstream's account-info fields plus Gatehouse's). */
async function accountInfo(runtime: Runtime, connected: Awaited<ReturnType<typeof requireConnectedStripe>>, projectId: string, branchId: string) {
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
 * `GET /internal/payments/stripe/account-info` (admin): the connected Stripe account →
 * `{ account_id, charges_enabled, details_submitted, payouts_enabled }` as upstream, plus
 * `secret_key_hint`, `webhook_configured` and `webhook_url` (never a key or secret).
 *
 * @throws STRIPE_ACCOUNT_INFO_NOT_FOUND when no account is connected (the SDK then returns null).
 * @see upstream `internal/payments/stripe/account-info/route.ts`
 */
export const getStripeAccountInfo = defineOperation({
  id: 'payments.stripeAccountInfo',
  method: 'GET',
  path: '/internal/payments/stripe/account-info',
  summary: 'Describe the connected Stripe account.',
  access: ['admin'],
  input: {},
  errors: ['STRIPE_ACCOUNT_INFO_NOT_FOUND'],
  async run(ctx) {
    const connected = await requireConnectedStripe(ctx.runtime, ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    return accountInfo(ctx.runtime, connected, ctx.auth.project.id, ctx.auth.branchId);
  },
});

/**
 * `PUT /internal/payments/stripe/keys` (admin; Gatehouse: "connect your own Stripe account"):
 * stores the project's Stripe secret key (and optionally its webhook signing secret) for the
 * current branch, sealed, after checking the key with Stripe (`GET /v1/account`) → the account
 * info. Body `{ secret_key: "sk_…" | "rk_…", webhook_secret?: "whsec_…" }`; leaving
 * `webhook_secret` out keeps the stored one.
 *
 * @throws a plain 400 when Stripe refuses the key.
 */
export const setStripeKeys = defineOperation({
  id: 'payments.setStripeKeys',
  method: 'PUT',
  path: '/internal/payments/stripe/keys',
  summary: 'Connect the project\'s own Stripe account.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      secret_key: v.pipe(v.string(), v.regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]{4,250}$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')),
      webhook_secret: v.optional(v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/=_-]{4,250}$/, 'must be a Stripe webhook signing secret (whsec_…)'))),
    }),
  },
  errors: ['STRIPE_ACCOUNT_INFO_NOT_FOUND'],
  async run(ctx, { body }) {
    const { id: projectId } = ctx.auth.project;
    const branchId = ctx.auth.branchId;
    let accountId: string;
    try {
      accountId = (await stripeClient(ctx.runtime, body.secret_key).accounts.retrieveCurrent()).id;
    } catch (error) {
      throw paymentsPlainError.badRequest(`Stripe did not accept this key: ${(error as Error).message}`);
    }
    const previous = await connectedStripe(ctx.runtime, ctx.db, projectId, branchId);
    const webhookSecret = body.webhook_secret ?? previous?.webhookSecret ?? null;
    await upsertStripeAccount(ctx.db, {
      project_id: projectId, branch_id: branchId,
      secret_key_sealed: sealStripeSecret(ctx.runtime, projectId, branchId, 'secret_key', body.secret_key),
      secret_key_hint: secretKeyHint(body.secret_key),
      webhook_secret_sealed: webhookSecret === null ? null : sealStripeSecret(ctx.runtime, projectId, branchId, 'webhook_secret', webhookSecret),
      account_id: accountId, created_at: ctx.now, updated_at: ctx.now,
    });
    const connected = await requireConnectedStripe(ctx.runtime, ctx.db, projectId, branchId);
    return accountInfo(ctx.runtime, connected, projectId, branchId);
  },
});

/** `DELETE /internal/payments/stripe/keys` (admin): forgets the Stripe keys of the current branch → `{ success: true }`. */
export const deleteStripeKeys = defineOperation({
  id: 'payments.deleteStripeKeys',
  method: 'DELETE',
  path: '/internal/payments/stripe/keys',
  summary: 'Disconnect the project\'s Stripe account.',
  access: ['admin'],
  input: {},
  ignoresBody: true,
  errors: [],
  async run(ctx) {
    await deleteStripeAccount(ctx.db, ctx.auth.project.id, ctx.auth.branchId);
    return { success: true };
  },
});

/**
 * `POST /internal/payments/setup` (admin; the SDK's `setupPayments`): upstream starts Stripe
 * Connect onboarding and answers its link; Gatehouse connects the project's own account instead,
 * so the answer `{ url }` is the dashboard page where the keys are entered.
 *
 * @see upstream `internal/payments/setup/route.ts`
 */
export const setupPayments = defineOperation({
  id: 'payments.setup',
  method: 'POST',
  path: '/internal/payments/setup',
  summary: 'Where to connect the project\'s Stripe account.',
  access: ['admin'],
  input: { body: v.optional(v.strictObject({})) },
  errors: [],
  async run(ctx) {
    return { url: `${ctx.runtime.baseUrl}/projects/${encodeURIComponent(ctx.auth.project.id)}/payments` };
  },
});

