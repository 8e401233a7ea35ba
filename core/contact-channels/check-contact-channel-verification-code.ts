import { defineOperation } from '../operations/define.ts';
import { checkVerificationCode, VERIFICATION_CODE_ERRORS, CodeValidOutput } from '../verification-codes/index.ts';
import { CodeBodySchema } from './schemas.ts';

/** Checks an email verification code without using it (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/contact-channels/). */
export const checkContactChannelVerificationCode = defineOperation({
  id: 'contactChannels.checkVerificationCode',
  method: 'POST',
  path: '/contact-channels/verify/check-code',
  summary: 'Check an email-verification code without using it.',
  access: ['client', 'server', 'admin'],
  input: { body: CodeBodySchema },
  errors: [...VERIFICATION_CODE_ERRORS],
  output: CodeValidOutput,
  async run(ctx, { body }) {
    await checkVerificationCode(ctx, ctx.auth.project.id, 'email_verification', body.code);
    return { is_code_valid: true };
  },
});
