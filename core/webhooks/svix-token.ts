import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';

/**
 * Answers an empty token (admin access), what upstream answers when no Svix
 * server is in use (its preview mode). Gatehouse delivers webhooks itself; the dashboard manages
 * endpoints through `/internal/webhook-endpoints`.
 */
export const svixToken = defineOperation({
  id: 'webhooks.svixToken',
  method: 'POST',
  path: '/webhooks/svix-token',
  summary: 'Svix app-portal token (always empty: Gatehouse has no Svix server).',
  access: ['admin'],
  input: { body: v.optional(v.strictObject({})) },
  errors: [],
  output: v.strictObject({ token: v.literal('') }),
  created: true,
  async run() {
    return { token: '' };
  },
});
