import { defineOperation } from '../operations/define.ts';
import { listEndpoints } from './queries.ts';
import { toWireEndpoint, WebhookEndpointOutput } from './wire.ts';
import { listOutput } from '../operations/output.ts';

/** Lists the webhook endpoints, oldest first, without secrets (admin access). */
export const listWebhookEndpoints = defineOperation({
  id: 'webhooks.listEndpoints',
  method: 'GET',
  path: '/internal/webhook-endpoints',
  summary: "List the project's webhook endpoints.",
  access: ['admin'],
  input: {},
  errors: [],
  output: listOutput(WebhookEndpointOutput),
  async run(ctx) {
    const rows = await listEndpoints(ctx.db, ctx.auth.project.id);
    return { items: rows.map(toWireEndpoint), is_paginated: false };
  },
});
