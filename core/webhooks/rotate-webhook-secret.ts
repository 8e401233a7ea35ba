import { defineOperation } from '../operations/define.ts';
import { seal } from '../lib/secret-box.ts';
import { getEndpoint } from './endpoint-lookup.ts';
import { updateEndpoint } from './queries.ts';
import { EndpointIdParams } from './schemas.ts';
import { generateSigningSecret } from './signing.ts';
import { SECRET_KEY_PURPOSE } from './worker.ts';
import * as v from 'valibot';

/**
 * Issues a new signing secret, shown once (admin access); every later attempt (retries of older messages too) is signed with it.
 */
export const rotateWebhookSecret = defineOperation({
  id: 'webhooks.rotateSecret',
  method: 'POST',
  path: '/internal/webhook-endpoints/:endpoint_id/rotate-secret',
  summary: "Replace a webhook endpoint's signing secret.",
  access: ['admin'],
  input: { params: EndpointIdParams },
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  output: v.strictObject({ secret: v.string() }),
  async run(ctx, { params }) {
    const endpoint = await getEndpoint(ctx.db, ctx.auth.project.id, params.endpoint_id);
    const secret = generateSigningSecret();
    await updateEndpoint(ctx.db, ctx.auth.project.id, endpoint.id, {
      secret_sealed: seal(ctx.runtime.deriveKey(SECRET_KEY_PURPOSE), secret, endpoint.id),
      updated_at: ctx.now,
    });
    return { secret };
  },
});
