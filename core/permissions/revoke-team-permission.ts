import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { success } from '../lib/schemas.ts';
import { resolveMe } from '../auth/user-id.ts';
import { checkGrantable } from './lookup.ts';
import { deleteTeamGrant } from './queries.ts';
import { TeamGrantParamsSchema } from './schemas.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Revokes a team permission from a member (server access). Only direct grants can be revoked.
 */
export const revokeTeamPermission = defineOperation({
  id: 'permissions.revokeTeam',
  method: 'DELETE',
  path: '/team-permissions/:team_id/:user_id/:permission_id',
  summary: 'Revoke a team permission from a team member.',
  access: ['server', 'admin'],
  input: { params: TeamGrantParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'PERMISSION_NOT_FOUND', 'WRONG_PERMISSION_SCOPE', 'TEAM_PERMISSION_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    const userId = resolveMe(ctx.auth, params.user_id);
    await ctx.transaction(async (tx) => {
      await checkGrantable(tx.db, projectId, 'team', params.permission_id);
      if (!(await deleteTeamGrant(tx.db, projectId, params.team_id, userId, params.permission_id))) {
        throw new KnownError('TEAM_PERMISSION_NOT_FOUND', {
          team_id: params.team_id,
          user_id: userId,
          permission_id: params.permission_id,
        });
      }
      await emitWebhookEvent(tx, projectId, 'team_permission.deleted', {
        id: params.permission_id,
        user_id: userId,
        team_id: params.team_id,
      });
    });
    return success;
  },
});
