import { defineOperation } from '../operations/define.ts';
import { getTeamOrThrow } from '../teams/index.ts';
import { checkVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { CodeSchema, INVITATION_PURPOSE, type TeamInvitationData } from './schemas.ts';

/**
 * `POST /team-invitations/accept/details` `{code}` → `{team_id, team_display_name}` without using
 * the code (the hosted invitation page shows the team's name). Errors: the verification-code
 * outcomes, TEAM_NOT_FOUND when the team was deleted.
 */
export const getTeamInvitationDetails = defineOperation({
  id: 'teamInvitations.details',
  method: 'POST',
  path: '/team-invitations/accept/details',
  summary: 'Read the team of an invitation code without using it.',
  access: ['client', 'server', 'admin'],
  input: { body: CodeSchema },
  errors: [...VERIFICATION_CODE_ERRORS, 'TEAM_NOT_FOUND'],
  async run(ctx, { body }) {
    const code = await checkVerificationCode<TeamInvitationData>(ctx, ctx.auth.project.id, INVITATION_PURPOSE, body.code);
    const team = await getTeamOrThrow(ctx.db, ctx.auth.project.id, code.data.team_id);
    return { team_id: team.id, team_display_name: team.display_name };
  },
});
