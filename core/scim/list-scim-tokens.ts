import { defineOperation } from '../operations/define.ts';
import { listOutput } from '../operations/output.ts';
import { MANAGE_SSO_ERRORS, requireCanManageSso } from '../team-domains/index.ts';
import { selectScimTokens } from './queries.ts';
import { ScimTokenOutput, TeamParams, toWire } from './tokens.ts';

/** `GET /teams/{team_id}/scim-tokens`: the team's SCIM tokens (never their values). */
export const listScimTokens = defineOperation({
  id: 'scim.listTokens',
  method: 'GET',
  path: '/teams/:team_id/scim-tokens',
  summary: "List a team's SCIM provisioning tokens.",
  access: ['client', 'server', 'admin'],
  input: { params: TeamParams },
  errors: [...MANAGE_SSO_ERRORS],
  output: listOutput(ScimTokenOutput),
  async run(ctx, { params }) {
    await requireCanManageSso(ctx, params.team_id);
    const rows = await selectScimTokens(ctx.db, ctx.auth.project.id, params.team_id);
    return { items: rows.map(toWire), is_paginated: false as const };
  },
});
