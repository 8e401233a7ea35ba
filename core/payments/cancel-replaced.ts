import type { Kysely } from 'kysely';
import type { Runtime } from '../runtime.ts';
import type { Database } from '../storage/tables.ts';
import type { PurchaseRow } from './queries.ts';
import { connectedStripe } from './stripe-account.ts';

/**
 * Cancels in Stripe (`DELETE /v1/subscriptions/{id}`) the Stripe subscriptions of purchases a new
 * purchase replaced in their product line (upstream `grantProductToCustomer`: a conflicting Stripe
 * subscription is canceled at once). Called after the grant committed; Gatehouse already ended
 * them. A subscription Stripe no longer knows or has canceled already is skipped.
 */
export async function cancelReplacedInStripe(
  runtime: Runtime,
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
  replaced: readonly PurchaseRow[],
): Promise<void> {
  const ids = replaced.map((r) => r.stripe_subscription_id).filter((id): id is string => id !== null);
  if (ids.length === 0) return;
  const connected = await connectedStripe(runtime, db, projectId, branchId);
  if (!connected) return;
  for (const id of ids) {
    try {
      await connected.stripe.subscriptions.cancel(id);
    } catch (error) {
      const code = (error as { statusCode?: number }).statusCode;
      if (code !== 404 && code !== 400) throw error;
    }
  }
}
