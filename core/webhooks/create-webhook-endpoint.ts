import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { seal } from '../lib/secret-box.ts';
import { uuid } from '../lib/random.ts';
import { insertEndpoint, findEndpoint } from './queries.ts';
import { WebhookEndpointCreateSchema } from './schemas.ts';
import { generateSigningSecret } from './signing.ts';
import { webhookUrlProblem } from './url-policy.ts';
import { SECRET_KEY_PURPOSE } from './worker.ts';
import { toWireEndpoint, WebhookEndpointOutput } from './wire.ts';
import * as v from 'valibot';
import { API_PREFIX } from '../operations/api-path.ts';

/**
 * Creates a webhook endpoint (admin access; a Gatehouse extension, Stack Auth uses Svix's
 * portal); the answer includes its `secret` (`whsec_…`), shown only here and on rotation. `event_types` null or absent subscribes to every type. The URL
 * must be http(s); in production mode not loopback, link-local or private (a schema error naming
 * `url`). The secret is stored sealed (AES-256-GCM, key derived from the server secret).
 */
export const createWebhookEndpoint = defineOperation({
  id: 'webhooks.createEndpoint',
  method: 'POST',
  path: '/internal/webhook-endpoints',
  summary: 'Create a webhook endpoint.',
  access: ['admin'],
  input: { body: WebhookEndpointCreateSchema },
  errors: ['SCHEMA_ERROR'],
  output: v.strictObject({ ...WebhookEndpointOutput.entries, secret: v.string() }),
  created: true,
  async run(ctx, { body }) {
    const problem = webhookUrlProblem(body.url, ctx.runtime.environment);
    if (problem)
      throw new KnownError('SCHEMA_ERROR', {
        message: `Request validation failed on POST ${API_PREFIX}/internal/webhook-endpoints:\n  - body.${problem}`,
      });
    const projectId = ctx.auth.project.id;
    const id = uuid();
    const secret = generateSigningSecret();
    await insertEndpoint(ctx.db, {
      id,
      project_id: projectId,
      url: body.url,
      description: body.description ?? '',
      event_types: body.event_types ? JSON.stringify([...new Set(body.event_types)]) : null,
      enabled: body.enabled !== false,
      secret_sealed: seal(ctx.runtime.deriveKey(SECRET_KEY_PURPOSE), secret, id),
      disabled_reason: null,
      consecutive_failures: 0,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    return { ...toWireEndpoint((await findEndpoint(ctx.db, projectId, id))!), secret };
  },
});
