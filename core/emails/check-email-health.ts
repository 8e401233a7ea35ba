import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { requireOperatorSecret } from './operator-secret.ts';
import { countOverdueEmails } from './queries.ts';

/** A first delivery attempt this late means the delivery worker is not running. */
const STALLED_AFTER_MS = 5 * 60 * 1000;

/**
 * The email health monitor (upstream `POST /health/email`, also served at that path outside
 * `/api`), guarded by `Authorization: Bearer <GATEHOUSE_EMAIL_MONITOR_SECRET>`. Upstream signs a
 * user up on a monitor project and waits for the verification email in a mailbox; Gatehouse checks
 * its own delivery pipeline instead: the outbox is readable and no email waits for its first
 * attempt more than five minutes past its time. `{success: true}`, else a 500.
 *
 * @throws KnownError SCHEMA_ERROR without the header; StatusError unauthorized (401 "Unauthorized");
 *   Error when delivery is stalled.
 */
export const checkEmailHealth = defineOperation({
  id: 'emails.checkHealth',
  method: 'POST',
  path: '/health/email',
  summary: 'Email health monitor: is the delivery pipeline moving?',
  access: 'public',
  input: {},
  errors: ['SCHEMA_ERROR'],
  output: SuccessOutput,
  async run(ctx) {
    requireOperatorSecret(ctx, ctx.runtime.operatorSecrets.emailMonitor, 'POST', '/health/email');
    const overdue = await countOverdueEmails(ctx.db, ctx.now - STALLED_AFTER_MS);
    if (overdue > 0) throw new Error(`Email delivery is stalled: ${overdue} emails wait for their first attempt`);
    return { success: true as const };
  },
});
