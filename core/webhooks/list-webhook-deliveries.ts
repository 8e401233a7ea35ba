import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { getEndpoint } from './endpoint-lookup.ts';
import { listDeliveryLog } from './queries.ts';
import { EndpointIdParams } from './schemas.ts';
import { toWireDelivery, WebhookDeliveryOutput } from './wire.ts';
import { listOutput } from '../operations/output.ts';

const QuerySchema = v.strictObject({
  limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,2}$/, 'must be an integer from 1 to 999'), v.transform(Number))),
});

/**
 * Lists the newest deliveries (admin access) (default 50), each with its event type, status,
 * next attempt and every attempt (time, status code, response excerpt, duration, error).
 */
export const listWebhookDeliveries = defineOperation({
  id: 'webhooks.listDeliveries',
  method: 'GET',
  path: '/internal/webhook-endpoints/:endpoint_id/deliveries',
  summary: 'The delivery log of a webhook endpoint.',
  access: ['admin'],
  input: { params: EndpointIdParams, query: QuerySchema },
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  output: listOutput(WebhookDeliveryOutput),
  async run(ctx, { params, query }) {
    const endpoint = await getEndpoint(ctx.db, ctx.auth.project.id, params.endpoint_id);
    const rows = await listDeliveryLog(ctx.db, ctx.auth.project.id, endpoint.id, query.limit ?? 50);
    return { items: rows.map(toWireDelivery), is_paginated: false };
  },
});
