import * as v from 'valibot';
import { component, MillisOutput, NullableString } from '../operations/output.ts';
import type { DeliveryLogRow, WebhookEndpointRow } from './queries.ts';

/** An endpoint on the wire (admin API). The secret is never part of it except on create / rotate. */
export function toWireEndpoint(row: WebhookEndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types === null ? null : (JSON.parse(row.event_types) as string[]),
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_at_millis: Number(row.created_at),
    updated_at_millis: Number(row.updated_at),
  };
}

/** One delivery of the log: the message, its state and every attempt. */
export function toWireDelivery(row: DeliveryLogRow) {
  const { delivery } = row;
  return {
    message_id: delivery.message_id,
    event_type: row.eventType,
    status: delivery.status as 'pending' | 'succeeded' | 'failed',
    attempt_count: Number(delivery.attempt_count),
    next_attempt_at_millis: delivery.status === 'pending' && delivery.next_attempt_at !== null ? Number(delivery.next_attempt_at) : null,
    created_at_millis: Number(delivery.created_at),
    attempts: row.attempts.map((a) => ({
      attempted_at_millis: Number(a.attempted_at),
      status_code: a.status_code === null ? null : Number(a.status_code),
      response_excerpt: a.response_excerpt,
      duration_ms: Number(a.duration_ms),
      error: a.error,
    })),
  };
}

/** An endpoint as {@link toWireEndpoint} shows it. */
export const WebhookEndpointOutput = component(
  'WebhookEndpoint',
  v.strictObject({
    id: v.string(),
    url: v.string(),
    description: v.string(),
    event_types: v.nullable(v.array(v.string())),
    enabled: v.boolean(),
    disabled_reason: NullableString,
    created_at_millis: MillisOutput,
    updated_at_millis: MillisOutput,
  }),
);

/** A delivery as {@link toWireDelivery} shows it. */
export const WebhookDeliveryOutput = component(
  'WebhookDelivery',
  v.strictObject({
    message_id: v.string(),
    event_type: v.string(),
    status: v.picklist(['pending', 'succeeded', 'failed']),
    attempt_count: v.pipe(v.number(), v.integer()),
    next_attempt_at_millis: v.nullable(MillisOutput),
    created_at_millis: MillisOutput,
    attempts: v.array(
      v.strictObject({
        attempted_at_millis: MillisOutput,
        status_code: v.nullable(v.pipe(v.number(), v.integer())),
        response_excerpt: NullableString,
        duration_ms: v.number(),
        error: NullableString,
      }),
    ),
  }),
);
