import * as v from 'valibot';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomInt } from 'node:crypto';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { EmailSchema } from '../lib/schemas.ts';
import { findUserByAuthEmail } from '../users/index.ts';
import { createVerificationCode } from '../verification-codes/index.ts';
import { assertCallbackUrlTrusted, linkWithCode, sendBuiltInEmail } from '../emails/index.ts';
import { enforceEmailLimits } from '../throttle/index.ts';

/** Data of a `password_reset` code. */
export type PasswordResetData = { user_id: string; email: string };

/**
 * Every answer takes at least this long (plus up to 100 ms of jitter), whether or not the email
 * exists, so the response time does not reveal which addresses have accounts. Real time, in ms.
 */
export const RESET_ANSWER_FLOOR_MS = 400;

/**
 * Sends a password-reset code, answering "maybe, only if user with e-mail exists" (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/). When a user signs in
 * with that email, a 7-day `password_reset` code is created and the email "Reset your password at
 * <project>" with `<callback_url>?code=<code>` is queued; otherwise nothing happens. The same
 * answer comes after a similar delay either way.
 */
export const sendResetCode = defineOperation({
  id: 'authPassword.sendResetCode',
  method: 'POST',
  path: '/auth/password/send-reset-code',
  summary: 'Email a password-reset link if the email has an account.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ email: EmailSchema, callback_url: v.string() }) },
  errors: ['PASSWORD_AUTHENTICATION_NOT_ENABLED', 'REDIRECT_URL_NOT_WHITELISTED'],
  output: v.strictObject({ success: v.literal('maybe, only if user with e-mail exists') }),
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    if (!project.config.credentialEnabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    assertCallbackUrlTrusted(ctx.runtime, project, body.callback_url);
    const answerAt = Date.now() + RESET_ANSWER_FLOOR_MS + randomInt(100);
    const email = normalizeEmail(body.email);
    // Before the lookup, so a throttled answer is the same whether or not the address has an account.
    await enforceEmailLimits(ctx, email);
    await ctx.transaction(async (tx) => {
      const user = await findUserByAuthEmail(tx.db, project.id, email);
      if (!user) return;
      const data: PasswordResetData = { user_id: user.id, email };
      const { code } = await createVerificationCode(tx, { projectId: project.id, purpose: 'password_reset', data, userId: user.id, email });
      await sendBuiltInEmail(tx, project, {
        kind: 'password_reset',
        to: email,
        userId: user.id,
        secrets: [code],
        vars: { link: linkWithCode(body.callback_url, code), userDisplayName: user.display_name ?? '' },
      });
    });
    const wait = answerAt - Date.now();
    if (wait > 0) await sleep(wait);
    return { success: 'maybe, only if user with e-mail exists' };
  },
});
