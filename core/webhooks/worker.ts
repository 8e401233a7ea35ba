import type { Runtime } from '../runtime.ts';
import { startPollingWorker, type PollingWorker } from '../lib/polling-worker.ts';
import { open } from '../lib/secret-box.ts';
import { postWebhook } from './deliver.ts';
import { deliveryHeaders } from './signing.ts';
import { findDueIds, releaseLease } from '../storage/leased-rows.ts';
import { claimDelivery, insertAttempt, updateEndpoint, type ClaimedDelivery } from './queries.ts';
import { uuid } from '../lib/random.ts';
import { notifyEndpointDisabled } from './notify.ts';
import { setWebhookKick } from '../webhook-events/index.ts';

/**
 * When each attempt is due after the message, as upstream's (Svix's) schedule: immediately, then
 * 5 s, 5 min, 30 min, 2 h, 5 h and 10 h after the previous failure. Index n = the delay before
 * attempt n + 1; after the last attempt fails the delivery is `failed` and the endpoint disabled.
 */
export const RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000] as const;
/** How long a process holds a delivery it is sending: longer than an attempt can take (DELIVERY_TIMEOUT_MS), short enough that a crashed process's claims come due again soon. */
export const WEBHOOK_LEASE_MS = 20_000;
/** The key purpose of endpoint secrets at rest (HKDF `info`). */
export const SECRET_KEY_PURPOSE = 'webhook-endpoint-secrets';

const workers = new WeakMap<Runtime, PollingWorker>();

/** Starts the delivery worker of `runtime` (polls every `webhookPollIntervalMs`, and on kicks). */
export function startWebhookWorker(runtime: Runtime): void {
  if (workers.has(runtime)) return;
  const worker = startPollingWorker(
    (isStopped) => deliverDue(runtime, isStopped),
    runtime.webhookPollIntervalMs,
    (error) => runtime.log.error({ err: String(error) }, 'webhook delivery run failed'),
  );
  workers.set(runtime, worker);
  setWebhookKick(runtime, () => worker.kick());
}

/** Stops the worker and waits for the attempt in progress. */
export async function stopWebhookWorker(runtime: Runtime): Promise<void> {
  const worker = workers.get(runtime);
  if (!worker) return;
  workers.delete(runtime);
  setWebhookKick(runtime, null);
  await worker.stop();
}

/** Asks the worker to deliver due messages now. */
export function kickWebhookWorker(runtime: Runtime): void {
  workers.get(runtime)?.kick();
}

/** Resolves when the worker is idle (tests). */
export async function webhookWorkerIdle(runtime: Runtime): Promise<void> {
  await workers.get(runtime)?.idle();
}

async function deliverDue(runtime: Runtime, isStopped: () => boolean): Promise<void> {
  for (;;) {
    const ids = await findDueIds(runtime.db, 'webhook_deliveries', runtime.clock.now(), 20);
    if (ids.length === 0) return;
    let claimedAny = false;
    for (const id of ids) {
      if (isStopped()) return;
      const lockedUntil = runtime.clock.now() + WEBHOOK_LEASE_MS;
      const claimed = await claimDelivery(runtime.db, id, runtime.clock.now(), lockedUntil);
      if (!claimed) continue;
      claimedAny = true;
      await attemptDelivery(runtime, claimed, lockedUntil);
    }
    if (!claimedAny) return;
  }
}

/**
 * Sends one claimed delivery once and records the attempt: 2xx → `succeeded`; otherwise the
 * next attempt is scheduled per RETRY_SCHEDULE_MS, and after the last one the delivery is `failed`,
 * the endpoint disabled and the project's owners told.
 *
 * @returns whether the receiver answered 2xx.
 */
export async function attemptDelivery(runtime: Runtime, claimed: ClaimedDelivery, lockedUntil: number): Promise<boolean> {
  const { delivery, message, endpoint } = claimed;
  const attempts = Number(delivery.attempt_count) + 1;
  if (!endpoint.enabled) {
    await releaseLease(runtime.db, 'webhook_deliveries', delivery.id, lockedUntil, {
      status: 'failed',
      next_attempt_at: null,
      updated_at: runtime.clock.now(),
    });
    return false;
  }
  const secret = open(runtime.deriveKey(SECRET_KEY_PURPOSE), endpoint.secret_sealed, endpoint.id);
  const outcome =
    secret === null
      ? {
          ok: false,
          statusCode: null,
          responseExcerpt: null,
          durationMs: 0,
          error: 'the endpoint secret cannot be read (server secret changed?)',
        }
      : await postWebhook(
          endpoint.url,
          deliveryHeaders(secret, message.id, Math.floor(runtime.clock.now() / 1000), message.payload),
          message.payload,
          runtime.environment === 'production',
        );
  const now = runtime.clock.now();
  await insertAttempt(runtime.db, {
    id: uuid(),
    delivery_id: delivery.id,
    project_id: delivery.project_id,
    attempted_at: now,
    status_code: outcome.statusCode,
    response_excerpt: outcome.responseExcerpt,
    duration_ms: outcome.durationMs,
    error: outcome.error,
  });
  if (outcome.ok) {
    await releaseLease(runtime.db, 'webhook_deliveries', delivery.id, lockedUntil, {
      status: 'succeeded',
      attempt_count: attempts,
      next_attempt_at: null,
      updated_at: now,
    });
    if (Number(endpoint.consecutive_failures) !== 0)
      await updateEndpoint(runtime.db, endpoint.project_id, endpoint.id, { consecutive_failures: 0 });
    return true;
  }
  const failedForGood = attempts >= RETRY_SCHEDULE_MS.length;
  await releaseLease(runtime.db, 'webhook_deliveries', delivery.id, lockedUntil, {
    status: failedForGood ? 'failed' : 'pending',
    attempt_count: attempts,
    next_attempt_at: failedForGood ? null : now + RETRY_SCHEDULE_MS[attempts]!,
    updated_at: now,
  });
  runtime.log.warn(
    { webhook_endpoint_id: endpoint.id, message_id: message.id, attempt: attempts, status: outcome.statusCode, err: outcome.error },
    failedForGood ? 'webhook delivery failed for good' : 'webhook delivery failed; will retry',
  );
  if (failedForGood) {
    const reason = `Disabled after every attempt to deliver ${message.id} failed (last: ${outcome.statusCode ?? outcome.error}).`;
    await updateEndpoint(runtime.db, endpoint.project_id, endpoint.id, {
      enabled: false,
      disabled_reason: reason,
      consecutive_failures: Number(endpoint.consecutive_failures) + 1,
      updated_at: now,
    });
    await notifyEndpointDisabled(runtime, endpoint, reason);
  }
  return false;
}
