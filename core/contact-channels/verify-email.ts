import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { findUser, updateUser } from '../users/index.ts';
import { useVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import type { EmailVerificationData } from './channels.ts';
import { findChannelRowByValue, updateChannelRow } from './queries.ts';
import { CodeBodySchema } from './schemas.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Marks the emailed address
 * verified — the user's primary email (`primary_email_verified`) or the matching contact channel
 * (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/contact-channels/).
 * An address already verified leaves the code unused.
 */
export const verifyEmail = defineOperation({
  id: 'contactChannels.verify',
  method: 'POST',
  path: '/contact-channels/verify',
  summary: 'Verify an email address with an emailed code.',
  access: ['client', 'server', 'admin'],
  input: { body: CodeBodySchema },
  errors: [...VERIFICATION_CODE_ERRORS, 'EMAIL_ALREADY_VERIFIED', 'USER_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    await useVerificationCode<EmailVerificationData, void>(ctx, project.id, 'email_verification', body.code, async (tx, code) => {
      const user = await findUser(tx.db, project.id, code.data.user_id);
      if (!user) throw new KnownError('USER_NOT_FOUND');
      if (user.primary_email === code.data.email) {
        if (user.primary_email_verified) throw new KnownError('EMAIL_ALREADY_VERIFIED');
        await updateUser(tx.db, project.id, user.id, { primary_email_verified: true });
        return;
      }
      const row = await findChannelRowByValue(tx.db, project.id, user.id, 'email', code.data.email);
      if (!row) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
      if (row.is_verified) throw new KnownError('EMAIL_ALREADY_VERIFIED');
      await updateChannelRow(tx.db, project.id, row.id, { is_verified: true });
    });
    return { success: true };
  },
});
