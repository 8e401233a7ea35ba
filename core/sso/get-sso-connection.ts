import { defineOperation } from '../operations/define.ts';
import { ConnectionParamsSchema, SsoConnectionOutput } from './schemas.ts';
import { getManagedConnection, MANAGE_ERRORS } from './access.ts';
import { toWireConnection } from './wire.ts';

/** One SSO connection of a team (server, admin; a client with `$manage_sso`). */
export const getSsoConnection = defineOperation({
  id: 'sso.getConnection',
  method: 'GET',
  path: '/teams/:team_id/sso-connections/:connection_id',
  summary: "Get one of a team's SSO connections.",
  access: ['client', 'server', 'admin'],
  input: { params: ConnectionParamsSchema },
  errors: [...MANAGE_ERRORS, 'SSO_CONNECTION_NOT_FOUND'],
  output: SsoConnectionOutput,
  async run(ctx, { params }) {
    return toWireConnection(ctx.runtime, await getManagedConnection(ctx, params.team_id, params.connection_id));
  },
});
