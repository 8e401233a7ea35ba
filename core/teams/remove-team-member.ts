import { defineOperation } from '../operations/define.ts';
import { success } from '../lib/schemas.ts';
import { findUser, updateUser } from '../users/index.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import { requireUser, resolveMe } from '../auth/user-id.ts';
import { getTeamMember } from './lookup.ts';
import { deleteTeamMember } from './queries.ts';
import { MembershipParamsSchema } from './schemas.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Removes a member from a team. A client may remove itself (`me`, leaving the team) or others
 * when it holds `$remove_members`. The member's team permissions go with the membership; a
 * selected team is unselected.
 */
export const removeTeamMember = defineOperation({
  id: 'teams.removeMember',
  method: 'DELETE',
  path: '/team-memberships/:team_id/:user_id',
  summary: 'Remove a user from a team.',
  access: ['client', 'server', 'admin'],
  input: { params: MembershipParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_AUTHENTICATION_REQUIRED', 'TEAM_MEMBERSHIP_NOT_FOUND', 'TEAM_PERMISSION_REQUIRED'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    const userId = resolveMe(ctx.auth, params.user_id);
    await ctx.transaction(async (tx) => {
      if (ctx.auth.accessType === 'client') {
        const self = requireUser(ctx.auth);
        if (userId !== self.id) await requireTeamPermission(tx.db, projectId, params.team_id, self.id, '$remove_members');
      }
      await getTeamMember(tx.db, projectId, params.team_id, userId);
      await deleteTeamMember(tx.db, projectId, params.team_id, userId);
      await emitWebhookEvent(tx, projectId, 'team_membership.deleted', { team_id: params.team_id, user_id: userId });
      const user = await findUser(tx.db, projectId, userId);
      if (user?.selected_team_id === params.team_id) await updateUser(tx.db, projectId, userId, { selected_team_id: null });
    });
    return success;
  },
});
