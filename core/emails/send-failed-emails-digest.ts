import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { findProject } from '../projects/index.ts';
import { requireOperatorSecret } from './operator-secret.ts';
import { listFailedEmailsSince, ownerEmailsOf } from './queries.ts';
import { enqueueEmail } from './outbox.ts';
import { escapeHtml } from './built-in.ts';
import { FailedEmailsDigestOutput } from './outputs.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Upstream's daily cron route (`internal/failed-emails-digest`), guarded by `Authorization: Bearer
 * <GATEHOUSE_CRON_SECRET>`: the emails whose delivery failed in the last 24 hours, per project,
 * with the primary emails of the project's owners (one entry per owner and failed email, as
 * upstream lists them). A recipient is its addresses, or `User ID: <id>` for an email sent to a
 * user's primary email. Unless `dry_run=true`, each project with owners gets one digest email per
 * owner through the internal project's email route (upstream has sending switched off and answers
 * 500 instead). `tenancy_id` is the project id (Gatehouse has no tenancies).
 *
 * @throws KnownError SCHEMA_ERROR without the header; StatusError unauthorized (401 "Unauthorized").
 */
export const sendFailedEmailsDigest = defineOperation({
  id: 'emails.failedEmailsDigest',
  method: 'POST',
  path: '/internal/failed-emails-digest',
  summary: 'List (and mail to owners) the emails that failed in the last 24 hours (cron).',
  access: 'public',
  input: { query: v.strictObject({ dry_run: v.optional(v.picklist(['true', 'false'])) }) },
  errors: ['SCHEMA_ERROR'],
  output: FailedEmailsDigestOutput,
  async run(ctx, { query }) {
    requireOperatorSecret(ctx, ctx.runtime.operatorSecrets.cron, 'POST', '/internal/failed-emails-digest');
    const failed = await listFailedEmailsSince(ctx.db, ctx.now - DAY);
    const byProject = new Map<string, Array<{ subject: string; to: string[] }>>();
    for (const row of failed) {
      const list = byProject.get(row.project_id) ?? [];
      const to = row.recipient === 'user-primary-email' && row.user_id ? [`User ID: ${row.user_id}`] : [row.to_email];
      list.push({ subject: row.subject, to });
      byProject.set(row.project_id, list);
    }
    const owners = await ownerEmailsOf(ctx.db, INTERNAL_PROJECT_ID, [...byProject.keys()]);
    const batches = [...byProject].map(([projectId, emails]) => {
      const ownerEmails = owners.get(projectId) ?? [];
      return {
        emails: ownerEmails.flatMap(() => emails),
        tenant_owner_emails: emails.flatMap(() => ownerEmails),
        project_id: projectId,
        tenancy_id: projectId,
      };
    });
    // A project without owners is left out (upstream's query joins them).
    const withOwners = batches.filter((b) => b.tenant_owner_emails.length > 0);
    if (query.dry_run !== 'true' && withOwners.length > 0) {
      const internal = await findProject(ctx.db, INTERNAL_PROJECT_ID);
      if (internal) {
        await ctx.transaction(async (tx) => {
          for (const [projectId, emails] of byProject) {
            const html = digestHtml(ctx.runtime.baseUrl, projectId, emails);
            for (const owner of new Set(owners.get(projectId) ?? [])) {
              await enqueueEmail(tx, internal, { to: owner, subject: 'Failed emails digest', html });
            }
          }
        });
      }
    }
    return { success: true, failed_emails_by_tenancy: withOwners };
  },
});

/** The digest's HTML: how many failed, a link to the project's email log, the last ten. */
function digestHtml(baseUrl: string, projectId: string, emails: ReadonlyArray<{ subject: string; to: string[] }>): string {
  const link = `${baseUrl}/projects/${encodeURIComponent(projectId)}/emails`;
  const last = emails
    .slice(-10)
    .map(
      (e) =>
        `<div><p>Subject: ${escapeHtml(e.subject.replace(/\s+/g, ' ').slice(0, 50))}<br />To: ${e.to.map(escapeHtml).join(', ')}</p></div>`,
    )
    .join('');
  return `<p>In the last 24 hours, ${emails.length} emails of your project failed to deliver. Please check its email server configuration.</p><p><a href="${escapeHtml(link)}">See the email log on the dashboard</a></p><p>Last failing emails:</p>${last}${emails.length > 10 ? '<div>…</div>' : ''}`;
}
