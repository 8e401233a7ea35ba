import { defineOperation } from '../operations/define.ts';
import { checkVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { CodeSchema, INVITATION_PURPOSE } from './schemas.ts';

/**
 * `POST /team-invitations/accept/check-code` `{code}` → `{is_code_valid: true}` without using the
 * code; otherwise the verification-code error (each check counts as an attempt).
 */
export const checkTeamInvitationCode = defineOperation({
  id: 'teamInvitations.checkCode',
  method: 'POST',
  path: '/team-invitations/accept/check-code',
  summary: 'Check a team invitation code without using it.',
  access: ['client', 'server', 'admin'],
  input: { body: CodeSchema },
  errors: [...VERIFICATION_CODE_ERRORS],
  async run(ctx, { body }) {
    await checkVerificationCode(ctx, ctx.auth.project.id, INVITATION_PURPOSE, body.code);
    return { is_code_valid: true };
  },
});
