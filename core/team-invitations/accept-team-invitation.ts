import { defineOperation } from '../operations/define.ts';
import { requireUser } from '../auth/user-id.ts';
import { useVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { joinInvitedTeam } from './join.ts';
import { refuseRestrictedInvitee } from './access.ts';
import { AcceptedOutput, CodeSchema, INVITATION_PURPOSE, type TeamInvitationData } from './schemas.ts';
import { updateUser } from '../users/index.ts';

/**
 * The signed-in user joins the team with `team_member_default_permissions` and the code is used
 * up. Holding the emailed code proves access to the invited address, so a primary email equal to
 * it becomes verified. When the team was deleted the code stays unused; anonymous and otherwise
 * restricted users are refused.
 */
export const acceptTeamInvitation = defineOperation({
  id: 'teamInvitations.accept',
  method: 'POST',
  path: '/team-invitations/accept',
  summary: 'Accept a team invitation with its emailed code.',
  access: ['client', 'server', 'admin'],
  input: { body: CodeSchema },
  errors: [...VERIFICATION_CODE_ERRORS, 'USER_AUTHENTICATION_REQUIRED', 'TEAM_NOT_FOUND', 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED'],
  output: AcceptedOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const user = requireUser(ctx.auth);
    await useVerificationCode<TeamInvitationData, void>(ctx, project.id, INVITATION_PURPOSE, body.code, async (tx, code) => {
      refuseRestrictedInvitee(ctx.auth, user);
      await joinInvitedTeam(tx, project, code.data.team_id, user.id);
      // The emailed code proves the invited address: it verifies a matching primary email.
      if (user.primary_email === code.data.email && !user.primary_email_verified) {
        await updateUser(tx.db, project.id, user.id, { primary_email_verified: true });
      }
    });
    return {};
  },
});
