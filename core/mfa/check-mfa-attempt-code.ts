import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { checkVerificationCode, VERIFICATION_CODE_ERRORS, CodeValidOutput } from '../verification-codes/index.ts';
import { MFA_ATTEMPT_MAX_TRIES, MFA_ATTEMPT_PURPOSE } from './finish-sign-in.ts';
import { enforceRateLimit } from '../throttle/index.ts';

/**
 * Checks an attempt code without using it (counts a try). Mirrors upstream's verification-code handler `check` route.
 */
export const checkMfaAttemptCode = defineOperation({
  id: 'mfa.checkAttemptCode',
  method: 'POST',
  path: '/auth/mfa/sign-in/check-code',
  summary: 'Check an MFA attempt code without using it.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ code: v.string() }) },
  errors: [...VERIFICATION_CODE_ERRORS],
  output: CodeValidOutput,
  async run(ctx, { body }) {
    await enforceRateLimit(ctx, 'sign_in_per_address');
    await checkVerificationCode(ctx, ctx.auth.project.id, MFA_ATTEMPT_PURPOSE, body.code, { maxAttempts: MFA_ATTEMPT_MAX_TRIES });
    return { is_code_valid: true };
  },
});
