import type { Runtime } from '../runtime.ts';
import { requireConnectedStripe } from './stripe-account.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/** The URL to give Stripe as the webhook endpoint of a project and branch. */
export function stripeWebhookUrl(runtime: Runtime, projectId: string, branchId: string): string {
  return `${runtime.baseUrl}${API_PREFIX}/integrations/stripe/webhooks?project_id=${encodeURIComponent(projectId)}${branchId === 'main' ? '' : `&branch_id=${encodeURIComponent(branchId)}`}`;
}

/** The account facts the dashboard shows (upstream's account-info fields plus Gatehouse's). */
export async function accountInfo(
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
