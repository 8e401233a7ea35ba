import { defineOperation } from '../operations/define.ts';
import { success } from '../lib/schemas.ts';
import { getEndpoint } from './endpoint-lookup.ts';
import { deleteEndpoint } from './queries.ts';
import { EndpointIdParams } from './schemas.ts';
import { SuccessOutput } from '../operations/output.ts';

/** Deletes a webhook endpoint; its pending deliveries go with it (admin access). */
export const deleteWebhookEndpoint = defineOperation({
  id: 'webhooks.deleteEndpoint',
  method: 'DELETE',
  path: '/internal/webhook-endpoints/:endpoint_id',
  summary: 'Delete a webhook endpoint and its delivery log.',
  access: ['admin'],
  input: { params: EndpointIdParams },
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const endpoint = await getEndpoint(ctx.db, ctx.auth.project.id, params.endpoint_id);
    await deleteEndpoint(ctx.db, ctx.auth.project.id, endpoint.id);
    return success;
  },
});
