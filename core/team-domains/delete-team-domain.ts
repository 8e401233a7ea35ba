import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { success } from '../lib/schemas.ts';
import { SuccessOutput } from '../operations/output.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from './access.ts';
import { deleteTeamDomainRow } from './queries.ts';
import { TeamDomainParamsSchema } from './schemas.ts';

/**
 * `DELETE /teams/{team_id}/domains/{domain}`: the team gives up a domain (verified or not); SSO is
 * no longer enforced for its addresses, and another team may verify it. Emits
 * `team_domain.deleted`. Errors: TEAM_DOMAIN_NOT_FOUND and those of the access check.
 */
export const deleteTeamDomain = defineOperation({
  id: 'teamDomains.delete',
  method: 'DELETE',
  path: '/teams/:team_id/domains/:domain',
  summary: "Remove a team's claimed domain.",
  access: ['client', 'server', 'admin'],
  input: { params: TeamDomainParamsSchema },
  ignoresBody: true,
  errors: [...MANAGE_SSO_ERRORS, 'TEAM_DOMAIN_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    await ctx.transaction(async (tx) => {
      await requireCanManageSso(tx, params.team_id);
      if (!(await deleteTeamDomainRow(tx.db, projectId, params.team_id, params.domain))) {
        throw new KnownError('TEAM_DOMAIN_NOT_FOUND', { team_id: params.team_id, domain: params.domain });
      }
      await emitWebhookEvent(tx, projectId, 'team_domain.deleted', { team_id: params.team_id, domain: params.domain });
    });
    return success;
  },
});
