import { defineOperation } from '../operations/define.ts';
import { success } from '../lib/schemas.ts';
import { findUser, updateUser } from '../users/index.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import { requireUser } from '../auth/user-id.ts';
import { getTeam } from './lookup.ts';
import { deleteTeam as deleteTeamRow, listTeamMembers } from './queries.ts';
import { TeamParamsSchema } from './schemas.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Deletes a team. Memberships, their permissions and the team's API keys go with it; members
 * who had it selected get `selected_team_id: null`. A client needs `$delete_team`.
 */
export const deleteTeam = defineOperation({
  id: 'teams.delete',
  method: 'DELETE',
  path: '/teams/:team_id',
  summary: 'Delete a team.',
  access: ['client', 'server', 'admin'],
  input: { params: TeamParamsSchema },
  ignoresBody: true,
  errors: ['TEAM_NOT_FOUND', 'TEAM_PERMISSION_REQUIRED', 'USER_AUTHENTICATION_REQUIRED'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    await ctx.transaction(async (tx) => {
      await getTeam(tx.db, projectId, params.team_id);
      if (ctx.auth.accessType === 'client')
        await requireTeamPermission(tx.db, projectId, params.team_id, requireUser(ctx.auth).id, '$delete_team');
      for (const member of await listTeamMembers(tx.db, projectId, { teamId: params.team_id })) {
        const user = await findUser(tx.db, projectId, member.user_id);
        if (user?.selected_team_id === params.team_id) await updateUser(tx.db, projectId, user.id, { selected_team_id: null });
      }
      await deleteTeamRow(tx.db, projectId, params.team_id);
      await emitWebhookEvent(tx, projectId, 'team.deleted', { id: params.team_id });
    });
    return success;
  },
});
