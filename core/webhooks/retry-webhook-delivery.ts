import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { success, UuidSchema } from '../lib/schemas.ts';
import { getEndpoint } from './endpoint-lookup.ts';
import { findDelivery, requeueDelivery } from './queries.ts';
import { kickWebhookWorker } from './worker.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Makes a delivery due again now (admin access), with the same message id (receivers
 * de-duplicate on it). Its attempt count goes on from where it was.
 */
export const retryWebhookDelivery = defineOperation({
  id: 'webhooks.retryDelivery',
  method: 'POST',
  path: '/internal/webhook-endpoints/:endpoint_id/deliveries/:message_id/retry',
  summary: 'Send a webhook message to an endpoint again.',
  access: ['admin'],
  input: {
    params: v.strictObject({
      endpoint_id: UuidSchema,
      message_id: v.pipe(v.string(), v.regex(/^msg_[0-9a-z]{1,64}$/, 'must be a message id')),
    }),
  },
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND', 'WEBHOOK_MESSAGE_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const endpoint = await getEndpoint(ctx.db, ctx.auth.project.id, params.endpoint_id);
    const delivery = await findDelivery(ctx.db, ctx.auth.project.id, endpoint.id, params.message_id);
    if (!delivery) throw new KnownError('WEBHOOK_MESSAGE_NOT_FOUND', { message_id: params.message_id });
    await requeueDelivery(ctx.db, delivery.id, ctx.now);
    const runtime = ctx.runtime;
    ctx.afterCommit(() => kickWebhookWorker(runtime));
    return success;
  },
});
