import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { success } from '../lib/schemas.ts';
import { requireInvitationAccess } from './access.ts';
import { findVerificationCode, revokeVerificationCode } from '../verification-codes/index.ts';
import { INVITATION_PURPOSE, InvitationParamsSchema, RevokeQuerySchema, type TeamInvitationData } from './schemas.ts';

/**
 * `DELETE /team-invitations/{id}?team_id=` → `{success: true}`: revokes a pending invitation. A
 * client must be a member of the invitation's team with `$remove_members` (TEAM_MEMBERSHIP_NOT_FOUND,
 * TEAM_PERMISSION_REQUIRED; upstream `team-invitations/crud.tsx`).
 * VERIFICATION_CODE_NOT_FOUND when no such invitation exists (or it belongs to another team).
 */
export const revokeTeamInvitation = defineOperation({
  id: 'teamInvitations.revoke',
  method: 'DELETE',
  path: '/team-invitations/:id',
  summary: 'Revoke a team invitation.',
  access: ['client', 'server', 'admin'],
  input: { params: InvitationParamsSchema, query: RevokeQuerySchema },
  errors: ['VERIFICATION_CODE_NOT_FOUND', 'TEAM_NOT_FOUND', 'TEAM_MEMBERSHIP_NOT_FOUND', 'TEAM_PERMISSION_REQUIRED', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  async run(ctx, { params, query }) {
    const { project } = ctx.auth;
    await ctx.transaction(async (tx) => {
      const code = await findVerificationCode<TeamInvitationData>(tx, project.id, INVITATION_PURPOSE, params.id);
      if (!code || code.usedAt !== null || (query.team_id !== undefined && code.data.team_id !== query.team_id)) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
      if (ctx.auth.accessType === 'client') await requireInvitationAccess(tx.db, ctx.auth, code.data.team_id, ['$remove_members']);
      await revokeVerificationCode(tx, project.id, INVITATION_PURPOSE, code.id);
    });
    return success;
  },
});
