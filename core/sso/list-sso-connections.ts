import { defineOperation } from '../operations/define.ts';
import { listOutput } from '../operations/output.ts';
import { listTeamConnections } from './queries.ts';
import { SsoConnectionOutput, TeamConnectionsParamsSchema } from './schemas.ts';
import { MANAGE_ERRORS, requireManageSso } from './access.ts';
import { toWireConnection } from './wire.ts';

/** Lists a team's SSO connections, oldest first (server, admin; a client with `$manage_sso`). */
export const listSsoConnections = defineOperation({
  id: 'sso.listConnections',
  method: 'GET',
  path: '/teams/:team_id/sso-connections',
  summary: "List a team's SSO connections.",
  access: ['client', 'server', 'admin'],
  input: { params: TeamConnectionsParamsSchema },
  errors: [...MANAGE_ERRORS],
  output: listOutput(SsoConnectionOutput),
  async run(ctx, { params }) {
    await requireManageSso(ctx, params.team_id);
    const items = await listTeamConnections(ctx.db, ctx.auth.project.id, params.team_id);
    return { items: items.map((c) => toWireConnection(ctx.runtime, c)), is_paginated: false as const };
  },
});
