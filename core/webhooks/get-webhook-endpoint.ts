import { defineOperation } from '../operations/define.ts';
import { getEndpoint } from './endpoint-lookup.ts';
import { EndpointIdParams } from './schemas.ts';
import { toWireEndpoint, WebhookEndpointOutput } from './wire.ts';

/** Reads one webhook endpoint, without its secret (admin access). */
export const getWebhookEndpoint = defineOperation({
  id: 'webhooks.getEndpoint',
  method: 'GET',
  path: '/internal/webhook-endpoints/:endpoint_id',
  summary: 'Read a webhook endpoint.',
  access: ['admin'],
  input: { params: EndpointIdParams },
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  output: WebhookEndpointOutput,
  async run(ctx, { params }) {
    return toWireEndpoint(await getEndpoint(ctx.db, ctx.auth.project.id, params.endpoint_id));
  },
});
