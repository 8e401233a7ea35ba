import { defineOperation } from '../operations/define.ts';
import { listOutput } from '../operations/output.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from './access.ts';
import { listTeamDomainRows } from './queries.ts';
import { TeamDomainOutput, TeamParamsSchema, toTeamDomain } from './schemas.ts';

/**
 * `GET /teams/{team_id}/domains`: the team's claimed domains by name, each with its state and DNS
 * challenge. Server and admin callers, or a client with `$manage_sso` in the team.
 */
export const listTeamDomains = defineOperation({
  id: 'teamDomains.list',
  method: 'GET',
  path: '/teams/:team_id/domains',
  summary: "List a team's claimed and verified domains.",
  access: ['client', 'server', 'admin'],
  input: { params: TeamParamsSchema },
  errors: [...MANAGE_SSO_ERRORS],
  output: listOutput(TeamDomainOutput),
  async run(ctx, { params }) {
    await requireCanManageSso(ctx, params.team_id);
    const rows = await listTeamDomainRows(ctx.db, ctx.auth.project.id, params.team_id);
    return { items: rows.map(toTeamDomain), is_paginated: false as const };
  },
});
