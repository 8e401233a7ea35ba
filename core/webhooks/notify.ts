import type { Runtime } from '../runtime.ts';
import { createSystemContext } from '../operations/execute.ts';
import { findProject } from '../projects/index.ts';
import { enqueueEmail, escapeHtml } from '../emails/index.ts';
import { listTeamMembers } from '../teams/index.ts';
import { findUser } from '../users/index.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import type { WebhookEndpointRow } from './queries.ts';

/**
 * Tells the owners of the endpoint's project (the members of its owner team in the dashboard's
 * internal project) that the endpoint was disabled, by email through the internal project's
 * outbox. The dashboard shows the same reason on the endpoint. Never throws.
 */
export async function notifyEndpointDisabled(runtime: Runtime, endpoint: WebhookEndpointRow, reason: string): Promise<void> {
  try {
    const project = await findProject(runtime.db, endpoint.project_id);
    const internal = await findProject(runtime.db, INTERNAL_PROJECT_ID);
    if (!project?.ownerTeamId || !internal) return;
    const members = await listTeamMembers(runtime.db, INTERNAL_PROJECT_ID, { teamId: project.ownerTeamId });
    const ctx = createSystemContext(runtime);
    await ctx.transaction(async (tx) => {
      for (const member of members) {
        const owner = await findUser(tx.db, INTERNAL_PROJECT_ID, member.user_id);
        if (!owner?.primary_email) continue;
        await enqueueEmail(tx, internal, {
          to: owner.primary_email,
          userId: owner.id,
          subject: `Webhook endpoint disabled in ${project.displayName}`,
          html: `<p>The webhook endpoint <b>${escapeHtml(endpoint.url)}</b> of project <b>${escapeHtml(project.displayName)}</b> was disabled.</p><p>${escapeHtml(reason)}</p><p>Fix the receiver, then turn the endpoint on again in the dashboard's Webhooks page; failed messages can be retried from its delivery log.</p>`,
          text: `The webhook endpoint ${endpoint.url} of project ${project.displayName} was disabled.\n${reason}\nFix the receiver, then turn the endpoint on again in the dashboard's Webhooks page.`,
        });
      }
    });
    await ctx.flush();
  } catch (error) {
    runtime.log.error({ err: String(error), webhook_endpoint_id: endpoint.id }, 'could not notify owners of a disabled webhook endpoint');
  }
}
