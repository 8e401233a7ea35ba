import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { requireOperatorSecret } from './operator-secret.ts';
import { emailWorkerIdle, kickEmailWorker } from './worker.ts';
import { QueueStepOutput } from './outputs.ts';

/**
 * Upstream's cron route that advances its email queue (`internal/email-queue-step`), guarded by
 * `Authorization: Bearer <GATEHOUSE_CRON_SECRET>`. Gatehouse's delivery worker runs by itself, so
 * a call runs one delivery pass now and waits for it (upstream keeps stepping for two minutes
 * unless `only_one_step=true`).
 *
 * @throws KnownError SCHEMA_ERROR without the header; StatusError unauthorized (401 "Unauthorized").
 */
export const runEmailQueueStep = defineOperation({
  id: 'emails.runQueueStep',
  method: 'GET',
  path: '/internal/email-queue-step',
  summary: 'Run one pass of the email delivery queue (cron).',
  access: 'public',
  input: { query: v.strictObject({ only_one_step: v.optional(v.picklist(['true', 'false'])) }) },
  errors: ['SCHEMA_ERROR'],
  output: QueueStepOutput,
  async run(ctx) {
    requireOperatorSecret(ctx, ctx.runtime.operatorSecrets.cron, 'GET', '/internal/email-queue-step');
    kickEmailWorker(ctx.runtime);
    await emailWorkerIdle(ctx.runtime);
    return { ok: true };
  },
});
