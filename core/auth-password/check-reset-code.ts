import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { checkVerificationCode, VERIFICATION_CODE_ERRORS, CodeValidOutput } from '../verification-codes/index.ts';

/** Checks a password-reset code without using it (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/). */
export const checkResetCode = defineOperation({
  id: 'authPassword.checkResetCode',
  method: 'POST',
  path: '/auth/password/reset/check-code',
  summary: 'Check a password-reset code without using it.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ code: v.string() }) },
  errors: [...VERIFICATION_CODE_ERRORS],
  output: CodeValidOutput,
  async run(ctx, { body }) {
    await checkVerificationCode(ctx, ctx.auth.project.id, 'password_reset', body.code);
    return { is_code_valid: true };
  },
});
