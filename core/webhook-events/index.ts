/**
 * Emitting webhook events, kept below every domain that emits them (users, teams, permissions) so
 * that none of them depends on the webhooks admin API or its deliverer (core/webhooks).
 */
export { emitWebhookEvent, setWebhookKick } from './events.ts';
export { SUBSCRIBABLE_EVENT_TYPES } from './types.ts';
export { type WebhookEndpointRow } from './queries.ts';
