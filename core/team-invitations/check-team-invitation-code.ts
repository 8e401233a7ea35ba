import { defineOperation } from '../operations/define.ts';
import { checkVerificationCode, CodeValidOutput, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { CodeSchema, INVITATION_PURPOSE } from './schemas.ts';

/**
 * Tells whether an invitation code is valid without using it; each check counts as an attempt
 * against the code.
 */
export const checkTeamInvitationCode = defineOperation({
  id: 'teamInvitations.checkCode',
  method: 'POST',
  path: '/team-invitations/accept/check-code',
  summary: 'Check a team invitation code without using it.',
  access: ['client', 'server', 'admin'],
  input: { body: CodeSchema },
  errors: [...VERIFICATION_CODE_ERRORS],
  output: CodeValidOutput,
  async run(ctx, { body }) {
    await checkVerificationCode(ctx, ctx.auth.project.id, INVITATION_PURPOSE, body.code);
    return { is_code_valid: true };
  },
});
