import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { deleteConnectionRow } from './queries.ts';
import { ConnectionParamsSchema } from './schemas.ts';
import { getManagedConnection, MANAGE_ERRORS } from './access.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';

/**
 * Deletes an SSO connection. Users who signed in through it keep their accounts and team
 * memberships; they can no longer sign in through it. Server and admin access; a client needs
 * `$manage_sso` in the team. Emits `sso_connection.deleted`.
 */
export const deleteSsoConnection = defineOperation({
  id: 'sso.deleteConnection',
  method: 'DELETE',
  path: '/teams/:team_id/sso-connections/:connection_id',
  summary: "Delete one of a team's SSO connections.",
  access: ['client', 'server', 'admin'],
  input: { params: ConnectionParamsSchema },
  ignoresBody: true,
  errors: [...MANAGE_ERRORS, 'SSO_CONNECTION_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    await ctx.transaction(async (tx) => {
      const connection = await getManagedConnection(tx, params.team_id, params.connection_id);
      await deleteConnectionRow(tx.db, connection.id);
      await emitWebhookEvent(tx, connection.projectId, 'sso_connection.deleted', { id: connection.id, team_id: connection.teamId });
    });
  },
});
