import type { OperationContext } from '../operations/define.ts';
import { secureRandomString, uuid } from '../lib/random.ts';
import type { Runtime } from '../runtime.ts';
import { insertDeliveries, insertMessage, listEnabledEndpoints, type WebhookEndpointRow } from './queries.ts';

const kickers = new WeakMap<Runtime, () => void>();

/**
 * Registers how to wake the webhook deliverer of `runtime` after a commit that queued messages
 * (core/webhooks/worker.ts registers itself; this module stays below every domain that emits).
 */
export function setWebhookKick(runtime: Runtime, kick: (() => void) | null): void {
  if (kick) kickers.set(runtime, kick);
  else kickers.delete(runtime);
}

import type { WebhookEventType } from './types.ts';

/** Does `endpoint` receive events of `type`? (`stack.test` is only ever sent to one endpoint.) */
export function endpointSubscribes(endpoint: WebhookEndpointRow, type: WebhookEventType): boolean {
  if (type === 'stack.test') return false;
  if (endpoint.event_types === null) return true;
  const types = JSON.parse(endpoint.event_types) as string[];
  return types.includes(type);
}

/** A new message id in Svix's shape (`msg_` + 26 base32 characters, 130 random bits). */
export function newMessageId(): string {
  return `msg_${secureRandomString(130)}`;
}

/**
 * Records a webhook event for every enabled endpoint of `projectId` subscribed to `type` (or only
 * `onlyEndpoint`). Writes through `ctx.db`: call it inside the transaction of the change, so a
 * committed change always yields its event and a rolled-back one never does (the outbox pattern
 * of the email outbox). Delivery starts after commit; the message id stays the same across
 * retries (`webhook-id` / `svix-id`), so receivers can de-duplicate.
 *
 * @returns the message id, or null when no endpoint receives it (nothing is written then).
 */
export async function emitWebhookEvent(
  ctx: OperationContext,
  projectId: string,
  type: WebhookEventType,
  data: unknown,
  onlyEndpoint?: WebhookEndpointRow,
): Promise<string | null> {
  const endpoints = onlyEndpoint
    ? [onlyEndpoint]
    : (await listEnabledEndpoints(ctx.db, projectId)).filter((e) => endpointSubscribes(e, type));
  if (endpoints.length === 0) return null;
  const messageId = newMessageId();
  await insertMessage(ctx.db, {
    id: messageId,
    project_id: projectId,
    event_type: type,
    payload: JSON.stringify({ type, data }),
    created_at: ctx.now,
  });
  await insertDeliveries(
    ctx.db,
    endpoints.map((e) => ({
      id: uuid(),
      project_id: projectId,
      endpoint_id: e.id,
      message_id: messageId,
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: ctx.now,
      locked_until: null,
      created_at: ctx.now,
      updated_at: ctx.now,
    })),
  );
  const kick = kickers.get(ctx.runtime);
  if (kick) ctx.afterCommit(kick);
  return messageId;
}
