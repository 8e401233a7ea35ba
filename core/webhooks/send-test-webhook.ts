import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { isUuidV4 } from '../lib/random.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { claimDelivery, findDelivery, findEndpoint, firstAttemptStatus } from './queries.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { attemptDelivery, WEBHOOK_LEASE_MS } from './worker.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * `POST /internal/send-test-webhook` (admin) `{endpoint_id}` → 200 `{success, error_message?}`,
 * as upstream: sends a `stack.test` event `{message, endpointUrl}` to that endpoint only, makes
 * the first attempt at once and reports whether the receiver answered 2xx. A missing endpoint is
 * `success: false` with upstream's text, not an error. A failed test is retried like any message.
 * When the delivery worker (of this or another process) claims the delivery first, the answer
 * waits for that worker's first attempt (at most one lease) and reports it.
 */
export const sendTestWebhook = defineOperation({
  id: 'webhooks.sendTest',
  method: 'POST',
  path: '/internal/send-test-webhook',
  summary: 'Send a test event to one webhook endpoint.',
  access: ['admin'],
  input: { body: v.strictObject({ endpoint_id: v.pipe(v.string(), v.maxLength(100)) }) },
  errors: [],
  output: v.union([SuccessOutput, v.strictObject({ success: v.literal(false), error_message: v.string() })]),
  async run(ctx, { body }) {
    const projectId = ctx.auth.project.id;
    const endpoint = isUuidV4(body.endpoint_id) ? await findEndpoint(ctx.db, projectId, body.endpoint_id) : null;
    if (!endpoint) return { success: false, error_message: 'Endpoint not found. Make sure it still exists.' };
    const messageId = await ctx.transaction((tx) =>
      emitWebhookEvent(
        tx,
        projectId,
        'stack.test',
        {
          message: 'Gatehouse webhook test event triggered from the Gatehouse dashboard.',
          endpointUrl: endpoint.url,
        },
        endpoint,
      ),
    );
    const delivery = await findDelivery(ctx.db, projectId, endpoint.id, messageId!);
    const now = ctx.runtime.clock.now();
    const claimed = delivery ? await claimDelivery(ctx.db, delivery.id, now, now + WEBHOOK_LEASE_MS) : null;
    const ok = claimed
      ? await attemptDelivery(ctx.runtime, claimed, now + WEBHOOK_LEASE_MS)
      : delivery !== null && (await attemptByWorker(ctx.db, delivery.id));
    return ok
      ? { success: true }
      : { success: false, error_message: 'Webhook not delivered. Make sure the endpoint is configured correctly.' };
  },
});

/** Waits (polling every 50 ms, for at most one lease) for the worker's first attempt at `deliveryId`; true when it was answered 2xx. */
async function attemptByWorker(db: Parameters<typeof firstAttemptStatus>[0], deliveryId: string): Promise<boolean> {
  const deadline = Date.now() + WEBHOOK_LEASE_MS;
  while (Date.now() < deadline) {
    const status = await firstAttemptStatus(db, deliveryId);
    if (status !== undefined) return status !== null && status >= 200 && status < 300;
    await sleep(50);
  }
  return false;
}
