import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from './access.ts';
import { findTeamDomain, updateTeamDomainRow } from './queries.ts';
import { TeamDomainOutput, TeamDomainParamsSchema, toTeamDomain } from './schemas.ts';

/**
 * `PATCH /teams/{team_id}/domains/{domain} {sso_enforced}`: turns SSO enforcement on or off for
 * the domain's addresses. It takes effect while the domain is verified and the project enables
 * `auth.sso.enforceForVerifiedDomains` (core/team-domains/enforcement.ts). Emits
 * `team_domain.updated`. Errors: TEAM_DOMAIN_NOT_FOUND and those of the access check.
 */
export const updateTeamDomain = defineOperation({
  id: 'teamDomains.update',
  method: 'PATCH',
  path: '/teams/:team_id/domains/:domain',
  summary: 'Turn SSO enforcement on or off for a team domain.',
  access: ['client', 'server', 'admin'],
  input: { params: TeamDomainParamsSchema, body: v.strictObject({ sso_enforced: v.optional(v.boolean()) }) },
  errors: [...MANAGE_SSO_ERRORS, 'TEAM_DOMAIN_NOT_FOUND'],
  output: TeamDomainOutput,
  async run(ctx, { params, body }) {
    const projectId = ctx.auth.project.id;
    return ctx.transaction(async (tx) => {
      await requireCanManageSso(tx, params.team_id);
      const row = await findTeamDomain(tx.db, projectId, params.team_id, params.domain);
      if (!row) throw new KnownError('TEAM_DOMAIN_NOT_FOUND', { team_id: params.team_id, domain: params.domain });
      if (body.sso_enforced === undefined || body.sso_enforced === row.sso_enforced) return toTeamDomain(row);
      const next = { ...row, sso_enforced: body.sso_enforced };
      await updateTeamDomainRow(tx.db, row, { sso_enforced: next.sso_enforced });
      await emitWebhookEvent(tx, projectId, 'team_domain.updated', toTeamDomain(next));
      return toTeamDomain(next);
    });
  },
});
