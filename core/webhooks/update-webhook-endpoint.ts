import type { Updateable } from 'kysely';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import type { WebhookEndpointsTable } from '../storage/tables.ts';
import { getEndpoint } from './endpoint-lookup.ts';
import { updateEndpoint } from './queries.ts';
import { EndpointIdParams, WebhookEndpointUpdateSchema } from './schemas.ts';
import { webhookUrlProblem } from './url-policy.ts';
import { toWireEndpoint, WebhookEndpointOutput } from './wire.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/**
 * Updates a webhook endpoint's URL, description, event types or state (admin access). Turning an endpoint on clears its disabled reason and failure count;
 * deliveries that failed for good stay failed (retry them from the log).
 */
export const updateWebhookEndpoint = defineOperation({
  id: 'webhooks.updateEndpoint',
  method: 'PATCH',
  path: '/internal/webhook-endpoints/:endpoint_id',
  summary: 'Update a webhook endpoint.',
  access: ['admin'],
  input: { params: EndpointIdParams, body: WebhookEndpointUpdateSchema },
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND', 'SCHEMA_ERROR'],
  output: WebhookEndpointOutput,
  async run(ctx, { params, body }) {
    const projectId = ctx.auth.project.id;
    const current = await getEndpoint(ctx.db, projectId, params.endpoint_id);
    if (body.url !== undefined) {
      const problem = webhookUrlProblem(body.url, ctx.runtime.environment);
      if (problem)
        throw new KnownError('SCHEMA_ERROR', {
          message: `Request validation failed on PATCH ${API_PREFIX}/internal/webhook-endpoints/${params.endpoint_id}:\n  - body.${problem}`,
        });
    }
    const changes: Updateable<WebhookEndpointsTable> = { updated_at: ctx.now };
    if (body.url !== undefined) changes.url = body.url;
    if (body.description !== undefined) changes.description = body.description;
    if (body.event_types !== undefined)
      changes.event_types = body.event_types === null ? null : JSON.stringify([...new Set(body.event_types)]);
    if (body.enabled !== undefined) {
      changes.enabled = body.enabled;
      if (body.enabled && !current.enabled) {
        changes.disabled_reason = null;
        changes.consecutive_failures = 0;
      }
    }
    await updateEndpoint(ctx.db, projectId, current.id, changes);
    return toWireEndpoint({ ...current, ...changes } as typeof current);
  },
});
