/**
 * Emitting webhook events, kept below every domain that emits them (users, teams, permissions) so
 * that none of them depends on the webhooks admin API or its deliverer (core/webhooks).
 */
export { emitWebhookEvent, endpointSubscribes, newMessageId, setWebhookKick } from './events.ts';
export { WEBHOOK_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES, type WebhookEventType } from './types.ts';
export { insertDeliveries, insertMessage, listEnabledEndpoints, type WebhookEndpointRow } from './queries.ts';
