import * as v from 'valibot';
import { UuidSchema } from '../lib/schemas.ts';
import { SUBSCRIBABLE_EVENT_TYPES } from '../webhook-events/index.ts';

/** Event types an endpoint may subscribe to (every type but the dashboard's test event). */
export const SubscribableEventTypeSchema = v.picklist(SUBSCRIBABLE_EVENT_TYPES);

const UrlSchema = v.pipe(v.string(), v.maxLength(2048, 'must be at most 2048 characters'));
const DescriptionSchema = v.pipe(v.string(), v.maxLength(1000, 'must be at most 1000 characters'));
/** null or absent: every event type. */
const EventTypesSchema = v.nullable(v.pipe(v.array(SubscribableEventTypeSchema), v.maxLength(64)));

export const WebhookEndpointCreateSchema = v.strictObject({
  url: UrlSchema,
  description: v.optional(DescriptionSchema),
  event_types: v.optional(EventTypesSchema),
  enabled: v.optional(v.boolean()),
});

export const WebhookEndpointUpdateSchema = v.strictObject({
  url: v.optional(UrlSchema),
  description: v.optional(DescriptionSchema),
  event_types: v.optional(EventTypesSchema),
  enabled: v.optional(v.boolean()),
});

export const EndpointIdParams = v.strictObject({ endpoint_id: UuidSchema });
