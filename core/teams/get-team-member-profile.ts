import { defineOperation } from '../operations/define.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import { requireUser, resolveMe } from '../auth/user-id.ts';
import { getTeamMember } from './lookup.ts';
import { toProfileJson, TeamMemberProfileOutput } from './profiles.ts';
import { MembershipParamsSchema } from './schemas.ts';

/**
 * Reads one team member's profile. A client reads its own, or others' with `$read_members`.
 */
export const getTeamMemberProfile = defineOperation({
  id: 'teams.getMemberProfile',
  method: 'GET',
  path: '/team-member-profiles/:team_id/:user_id',
  summary: 'Get a team member profile.',
  access: ['client', 'server', 'admin'],
  input: { params: MembershipParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED', 'TEAM_MEMBERSHIP_NOT_FOUND'],
  output: TeamMemberProfileOutput,
  async run(ctx, { params }) {
    const { project, accessType } = ctx.auth;
    const userId = resolveMe(ctx.auth, params.user_id);
    if (accessType === 'client') {
      const self = requireUser(ctx.auth);
      if (userId !== self.id) await requireTeamPermission(ctx.db, project.id, params.team_id, self.id, '$read_members');
    }
    const member = await getTeamMember(ctx.db, project.id, params.team_id, userId);
    return toProfileJson(ctx.db, project, accessType, member);
  },
});
