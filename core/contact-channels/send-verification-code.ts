import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { StoredEmailSchema } from '../lib/schemas.ts';
import { assertCallbackUrlTrusted } from '../emails/index.ts';
import { getUserOrThrow, sendVerificationEmail } from './channels.ts';
import { enforceEmailLimits } from '../throttle/index.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Legacy route: emails a verification link for the signed-in user's primary email
 * (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/contact-channels/).
 */
export const sendVerificationCode = defineOperation({
  id: 'contactChannels.sendVerificationCode',
  method: 'POST',
  path: '/contact-channels/send-verification-code',
  summary: "Email a verification link for the current user's primary email.",
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ email: StoredEmailSchema, callback_url: v.string() }) },
  requiresUser: true,
  errors: [
    'USER_AUTHENTICATION_REQUIRED',
    'USER_NOT_FOUND',
    'REDIRECT_URL_NOT_WHITELISTED',
    'EMAIL_IS_NOT_PRIMARY_EMAIL',
    'EMAIL_ALREADY_VERIFIED',
  ],
  output: SuccessOutput,
  async run(ctx, { body }) {
    const { project, user: caller } = ctx.auth;
    if (!caller) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
    assertCallbackUrlTrusted(ctx.runtime, project, body.callback_url);
    const email = normalizeEmail(body.email);
    await ctx.transaction(async (tx) => {
      const user = await getUserOrThrow(tx.db, project.id, caller.id);
      if (user.primary_email !== email) throw new KnownError('EMAIL_IS_NOT_PRIMARY_EMAIL', { email, primary_email: user.primary_email });
      if (user.primary_email_verified) throw new KnownError('EMAIL_ALREADY_VERIFIED');
      await enforceEmailLimits(tx, email);
      await sendVerificationEmail(tx, project, user, email, body.callback_url);
    });
    return { success: true };
  },
});
