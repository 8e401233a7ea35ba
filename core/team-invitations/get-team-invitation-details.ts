import { defineOperation } from '../operations/define.ts';
import { getTeamOrThrow } from '../teams/index.ts';
import { checkVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { refuseRestrictedInvitee } from './access.ts';
import { CodeSchema, INVITATION_PURPOSE, InvitationDetailsOutput, type TeamInvitationData } from './schemas.ts';

/**
 * The team an invitation code is for, without using the code (the hosted invitation page shows
 * the team's name). A restricted signed-in user is refused, as upstream
 * `accept/verification-code-handler.tsx` `details` refuses them.
 */
export const getTeamInvitationDetails = defineOperation({
  id: 'teamInvitations.details',
  method: 'POST',
  path: '/team-invitations/accept/details',
  summary: 'Read the team of an invitation code without using it.',
  access: ['client', 'server', 'admin'],
  input: { body: CodeSchema },
  errors: [...VERIFICATION_CODE_ERRORS, 'TEAM_NOT_FOUND', 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED'],
  output: InvitationDetailsOutput,
  async run(ctx, { body }) {
    const code = await checkVerificationCode<TeamInvitationData>(ctx, ctx.auth.project.id, INVITATION_PURPOSE, body.code);
    if (ctx.auth.user) refuseRestrictedInvitee(ctx.auth, ctx.auth.user);
    const team = await getTeamOrThrow(ctx.db, ctx.auth.project.id, code.data.team_id);
    return { team_id: team.id, team_display_name: team.display_name };
  },
});
