import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { success } from '../lib/schemas.ts';
import { SuccessOutput } from '../operations/output.ts';
import { requireInvitationAccess } from './access.ts';
import { findVerificationCode, revokeVerificationCode } from '../verification-codes/index.ts';
import { INVITATION_PURPOSE, InvitationParamsSchema, RevokeQuerySchema, type TeamInvitationData } from './schemas.ts';

/**
 * Revokes a pending invitation. `team_id` is required and checked first, as upstream
 * `team-invitations/crud.tsx`: a server caller needs the team to exist; a client must be a member
 * with `$remove_members`. An invitation of another team counts as not found (upstream revokes any
 * team's invitation here; docs/compatibility.md).
 */
export const revokeTeamInvitation = defineOperation({
  id: 'teamInvitations.revoke',
  method: 'DELETE',
  path: '/team-invitations/:id',
  summary: 'Revoke a team invitation.',
  access: ['client', 'server', 'admin'],
  input: { params: InvitationParamsSchema, query: RevokeQuerySchema },
  errors: [
    'VERIFICATION_CODE_NOT_FOUND',
    'TEAM_NOT_FOUND',
    'TEAM_MEMBERSHIP_NOT_FOUND',
    'TEAM_PERMISSION_REQUIRED',
    'CANNOT_GET_OWN_USER_WITHOUT_USER',
  ],
  output: SuccessOutput,
  async run(ctx, { params, query }) {
    const { project } = ctx.auth;
    await ctx.transaction(async (tx) => {
      await requireInvitationAccess(tx.db, ctx.auth, query.team_id, ['$remove_members']);
      const code = await findVerificationCode<TeamInvitationData>(tx, project.id, INVITATION_PURPOSE, params.id);
      if (!code || code.usedAt !== null || code.data.team_id !== query.team_id) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
      await revokeVerificationCode(tx, project.id, INVITATION_PURPOSE, code.id);
    });
    return success;
  },
});
