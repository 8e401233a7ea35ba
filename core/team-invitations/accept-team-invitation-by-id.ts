import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { requireSelfForClient, requireUser, resolveMe } from '../auth/user-id.ts';
import { findUser } from '../users/index.ts';
import { findVerificationCode, revokeVerificationCode } from '../verification-codes/index.ts';
import { joinInvitedTeam, verifiedEmailsOf } from './join.ts';
import { refuseRestrictedInvitee } from './access.ts';
import { AcceptByIdQuerySchema, AcceptedOutput, INVITATION_PURPOSE, InvitationParamsSchema, type TeamInvitationData } from './schemas.ts';

/**
 * Accepts a received invitation (as listed with `user_id=me`) without its code: the invitation
 * must be addressed to one of the user's verified email contact channels. The code is deleted
 * inside the joining transaction, so acceptance is single-use under concurrency.
 */
export const acceptTeamInvitationById = defineOperation({
  id: 'teamInvitations.acceptById',
  method: 'POST',
  path: '/team-invitations/:id/accept',
  summary: 'Accept a team invitation sent to your verified email.',
  access: ['client', 'server', 'admin'],
  input: { params: InvitationParamsSchema, query: AcceptByIdQuerySchema },
  errors: [
    'USER_AUTHENTICATION_REQUIRED',
    'CANNOT_GET_OWN_USER_WITHOUT_USER',
    'USER_NOT_FOUND',
    'TEAM_INVITATION_EMAIL_MISMATCH',
    'TEAM_NOT_FOUND',
    'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED',
    'VERIFICATION_CODE_NOT_FOUND',
    'VERIFICATION_CODE_EXPIRED',
    'VERIFICATION_CODE_ALREADY_USED',
  ],
  output: AcceptedOutput,
  async run(ctx, { params, query }) {
    const { project } = ctx.auth;
    const userId = query.user_id !== undefined ? resolveMe(ctx.auth, query.user_id) : requireUser(ctx.auth).id;
    requireSelfForClient(ctx.auth, userId, 'accept team invitations');
    await ctx.transaction(async (tx) => {
      const user = await findUser(tx.db, project.id, userId);
      if (!user) throw new KnownError('USER_NOT_FOUND');
      refuseRestrictedInvitee(ctx.auth, user);
      const code = await findVerificationCode<TeamInvitationData>(tx, project.id, INVITATION_PURPOSE, params.id);
      if (!code) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
      if (code.usedAt !== null) throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
      if (code.expiresAt <= tx.now) throw new KnownError('VERIFICATION_CODE_EXPIRED');
      if (!(await verifiedEmailsOf(tx.db, project.id, user)).includes(code.data.email))
        throw new KnownError('TEAM_INVITATION_EMAIL_MISMATCH');
      await joinInvitedTeam(tx, project, code.data.team_id, user.id);
      // Deleting the code inside the transaction makes acceptance single-use under concurrency.
      if (!(await revokeVerificationCode(tx, project.id, INVITATION_PURPOSE, code.id)))
        throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
    });
    return {};
  },
});
