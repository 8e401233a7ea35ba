import type Stripe from 'stripe';
import { KnownError } from '../errors/index.ts';
import type { OperationContext } from '../operations/define.ts';
import { startPollingWorker, type PollingWorker } from '../lib/polling-worker.ts';
import { uuid } from '../lib/random.ts';
import { findDueIds, releaseLease } from '../storage/leased-rows.ts';
import type { Runtime } from '../runtime.ts';
import type { PurchaseRow } from './queries.ts';
import { connectedStripe } from './stripe-account.ts';
import { claimStripeOutboxRow, insertStripeOutboxRows, type StripeOutboxRow } from './stripe-outbox-queries.ts';

/**
 * The Stripe outbox: a change Gatehouse made to a purchase locally (ended it, refunded it) that
 * Stripe must also hear of, so the customer stops being billed. The owed Stripe call is written in
 * the same transaction as the local change, attempted at once after commit, and retried with
 * backoff by a background worker (the polling worker of the email and webhook outboxes) until
 * Stripe has it: nothing is lost when Stripe fails or the process dies between commit and call.
 * docs/payments.md "Stripe changes are never lost".
 */

/** What Stripe must be told: cancel now, cancel at the period's end, or set the quantity (0: also at the period's end). */
export type StripeSubscriptionChange =
  | { action: 'cancel' }
  | { action: 'cancel_at_period_end' }
  | { action: 'set_quantity'; quantity: number };

/**
 * When each attempt is due after the local change: at once, then 30 s, 2 min, 10 min, 30 min,
 * 1 h, 3 h, 6 h, 12 h and 24 h after the previous failure (about two days in all). Index n = the
 * delay before attempt n + 1; after the last attempt fails the row is `failed` and an error logged.
 */
export const STRIPE_RETRY_SCHEDULE_MS = [
  0, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
] as const;
/** How long a process holds a row while it calls Stripe, in ms: more than two client attempts of 15 s each and their pause. */
export const STRIPE_OUTBOX_LEASE_MS = 90_000;
/** How often each process looks for due rows, in real ms (the first look is at start, for rows a dead process left). */
const POLL_INTERVAL_MS = 15_000;
/** The longest error text a row keeps. */
const ERROR_CHARS = 500;

/**
 * Records, through `ctx.db` (call it inside the transaction of the local change), that Stripe must
 * apply `change` to the subscription of each purchase paid through Stripe, and attempts it once
 * the transaction commits. Purchases without a Stripe subscription are skipped.
 */
export async function queueStripeChange(
  ctx: OperationContext,
  purchases: readonly PurchaseRow[],
  change: StripeSubscriptionChange,
): Promise<void> {
  const rows = purchases
    .filter((p) => p.stripe_subscription_id !== null)
    .map((p) => ({
      id: uuid(),
      project_id: p.project_id,
      branch_id: p.branch_id,
      purchase_id: p.id,
      stripe_subscription_id: p.stripe_subscription_id!,
      action: change.action,
      quantity: change.action === 'set_quantity' ? change.quantity : null,
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: ctx.now,
      locked_until: null,
      last_error: null,
      created_at: ctx.now,
      updated_at: ctx.now,
    }));
  if (rows.length === 0) return;
  await insertStripeOutboxRows(ctx.db, rows);
  const ids = rows.map((r) => r.id);
  const runtime = ctx.runtime;
  ctx.afterCommit(async () => {
    await attemptStripeChanges(runtime, ids);
  });
}

/**
 * Claims and attempts each of the rows `ids` that is still pending, due and free.
 *
 * @returns how many this process claimed.
 */
async function attemptStripeChanges(runtime: Runtime, ids: readonly string[], isStopped: () => boolean = () => false): Promise<number> {
  let claimed = 0;
  for (const id of ids) {
    if (isStopped()) break;
    const lockedUntil = runtime.clock.now() + STRIPE_OUTBOX_LEASE_MS;
    const row = await claimStripeOutboxRow(runtime.db, id, runtime.clock.now(), lockedUntil);
    if (!row) continue;
    claimed++;
    await attemptStripeChange(runtime, row, lockedUntil);
  }
  return claimed;
}

/**
 * One pass of the retry worker: attempts every due row of the outbox, at the injected clock's now,
 * claiming each first so that processes sharing one database never call Stripe twice for one attempt.
 */
export async function retryDueStripeChanges(runtime: Runtime, isStopped: () => boolean = () => false): Promise<void> {
  for (;;) {
    const ids = await findDueIds(runtime.db, 'payment_stripe_outbox', runtime.clock.now(), 20);
    if (ids.length === 0 || (await attemptStripeChanges(runtime, ids, isStopped)) === 0) return;
  }
}

/**
 * Calls Stripe once for a claimed row and records the outcome: done; else the next attempt per
 * {@link STRIPE_RETRY_SCHEDULE_MS}, or `failed` (with an error log line) after the last one.
 * Never throws.
 */
async function attemptStripeChange(runtime: Runtime, row: StripeOutboxRow, lockedUntil: number): Promise<void> {
  const attempts = Number(row.attempt_count) + 1;
  let error: string | null = null;
  try {
    const connected = await connectedStripe(runtime, runtime.db, row.project_id, row.branch_id);
    if (connected) await applyChange(connected.stripe, row);
    else error = 'the Stripe account of this project and branch is not connected';
  } catch (thrown) {
    // Stripe's own error as it reported it, also behind the known errors it becomes (stripe-account.ts).
    const e = thrown instanceof KnownError && thrown.code.startsWith('STRIPE_') && thrown.cause !== undefined ? thrown.cause : thrown;
    const status = (e as { statusCode?: number }).statusCode;
    error = `${status ? `${status} ` : ''}${e instanceof Error ? e.message : String(e)}`.slice(0, ERROR_CHARS);
  }
  const now = runtime.clock.now();
  if (error === null) {
    await releaseLease(runtime.db, 'payment_stripe_outbox', row.id, lockedUntil, {
      status: 'done',
      attempt_count: attempts,
      next_attempt_at: null,
      updated_at: now,
    });
    return;
  }
  const failedForGood = attempts >= STRIPE_RETRY_SCHEDULE_MS.length;
  await releaseLease(runtime.db, 'payment_stripe_outbox', row.id, lockedUntil, {
    status: failedForGood ? 'failed' : 'pending',
    attempt_count: attempts,
    next_attempt_at: failedForGood ? null : now + STRIPE_RETRY_SCHEDULE_MS[attempts]!,
    last_error: error,
    updated_at: now,
  });
  const fields = {
    project_id: row.project_id,
    purchase_id: row.purchase_id,
    stripe_subscription_id: row.stripe_subscription_id,
    action: row.action,
    attempt: attempts,
    err: error,
  };
  if (failedForGood) runtime.log.error(fields, 'Stripe subscription change failed for good; the customer may still be billed in Stripe');
  else runtime.log.warn(fields, 'Stripe subscription change failed; will retry');
}

/**
 * Applies a row's change in Stripe. A subscription Stripe no longer knows (404), or one already
 * canceled (a 400 to a cancel; a canceled status after a 400 to an update), counts as done.
 */
async function applyChange(stripe: Stripe, row: StripeOutboxRow): Promise<void> {
  const id = row.stripe_subscription_id;
  try {
    if (row.action === 'cancel') await stripe.subscriptions.cancel(id);
    else if (row.action === 'cancel_at_period_end') await stripe.subscriptions.update(id, { cancel_at_period_end: true });
    else {
      const quantity = Number(row.quantity ?? 0);
      const item = (await stripe.subscriptions.retrieve(id)).items.data[0];
      await stripe.subscriptions.update(id, {
        cancel_at_period_end: quantity === 0,
        ...(item ? { items: [{ id: item.id, quantity }] } : {}),
      });
    }
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 404) return;
    if (status === 400 && (row.action === 'cancel' || (await stripe.subscriptions.retrieve(id)).status === 'canceled')) return;
    throw error;
  }
}

const workers = new WeakMap<Runtime, PollingWorker>();

/** Starts the retry worker of `runtime`: a pass at once (rows a dead process left), then every 15 s. */
export function startStripeOutboxWorker(runtime: Runtime): void {
  if (workers.has(runtime)) return;
  const worker = startPollingWorker(
    (isStopped) => retryDueStripeChanges(runtime, isStopped),
    POLL_INTERVAL_MS,
    (error) => runtime.log.error({ err: String(error) }, 'Stripe outbox run failed'),
  );
  workers.set(runtime, worker);
}

/** Stops the retry worker and waits for the pass in progress. */
export async function stopStripeOutboxWorker(runtime: Runtime): Promise<void> {
  const worker = workers.get(runtime);
  if (!worker) return;
  workers.delete(runtime);
  await worker.stop();
}

/** Asks the retry worker for a pass now and resolves when it is idle (tests; an operator's "retry now"). */
export async function runStripeOutboxWorker(runtime: Runtime): Promise<void> {
  const worker = workers.get(runtime);
  if (!worker) return;
  worker.kick();
  await worker.idle();
}
