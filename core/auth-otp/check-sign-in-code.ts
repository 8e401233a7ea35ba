import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { checkVerificationCode, VERIFICATION_CODE_ERRORS, CodeValidOutput } from '../verification-codes/index.ts';
import { enforceRateLimit } from '../throttle/index.ts';

/**
 * Checks a sign-in code without consuming it; an invalid code raises its verification-code error (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/otp/).
 */
export const checkSignInCode = defineOperation({
  id: 'authOtp.checkSignInCode',
  method: 'POST',
  path: '/auth/otp/sign-in/check-code',
  summary: 'Check a sign-in code without using it.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ code: v.string() }) },
  errors: [...VERIFICATION_CODE_ERRORS],
  output: CodeValidOutput,
  async run(ctx, { body }) {
    await enforceRateLimit(ctx, 'sign_in_per_address');
    await checkVerificationCode(ctx, ctx.auth.project.id, 'otp_sign_in', body.code);
    return { is_code_valid: true };
  },
});
