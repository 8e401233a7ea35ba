import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { assertOtpMayReach } from './ownership.ts';
import { enforceEmailLimits } from '../throttle/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { checkSignInAttempt, SIGN_IN_ATTEMPT_ERRORS } from '../sign-up-rules/index.ts';
import { EmailSchema } from '../lib/schemas.ts';
import { findAuthEmailChannel } from '../contact-channels/index.ts';
import { createVerificationCode, splitOtp } from '../verification-codes/index.ts';
import { assertCallbackUrlTrusted, linkWithCode, sendBuiltInEmail } from '../emails/index.ts';
import { assessBotChallenge, BOT_CHALLENGE_ERRORS, BotChallengeBodyEntries, type TurnstileResult } from '../bot-challenge/index.ts';

/**
 * Data of an `otp_sign_in` code. The bot challenge of the send (upstream stores
 * `turnstile_result` and `turnstile_visible_challenge_result` in the code the same way) is what
 * the sign-up rules see when the code creates a user; a code without it counts as `error`.
 */
export type OtpSignInData = {
  email: string;
  callback_url: string;
  turnstile_result?: TurnstileResult;
  turnstile_visible_challenge_result?: TurnstileResult;
};

/**
 * Sends a sign-in code by email, answering its nonce (upstream
 * https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/otp/). Creates a 7-day code and queues the email "Sign in to <project>: Your
 * code is <OTP>" with the magic link `<callback_url>?code=<code>`. The nonce is `code[6:]`.
 *
 * Refused with 403 text "OTP sign-in is not enabled for this project" when `magic_link_enabled`
 * is off; refused as taken (`would_work_if_email_was_verified: true`) when a user
 * signs in with this address (primary or not) through a channel that is not verified, whether or
 * not that user turned OTP sign-in on; refused when no user has
 * it and sign-up is off (upstream `ensureUserForEmailAllowsOtp`).
 *
 * The bot challenge (core/bot-challenge, action `send_magic_link_email`) is checked before the
 * code is made: BOT_CHALLENGE_REQUIRED asks for the visible retry, BOT_CHALLENGE_FAILED refuses.
 */
export const sendSignInCode = defineOperation({
  id: 'authOtp.sendSignInCode',
  method: 'POST',
  path: '/auth/otp/send-sign-in-code',
  summary: 'Email a one-time code and magic link for signing in.',
  access: ['client', 'server', 'admin'],
  input: {
    body: v.strictObject({
      email: EmailSchema,
      callback_url: v.string(),
      ...BotChallengeBodyEntries,
    }),
  },
  errors: [
    'REDIRECT_URL_NOT_WHITELISTED',
    'USER_EMAIL_ALREADY_EXISTS',
    'SIGN_UP_NOT_ENABLED',
    ...BOT_CHALLENGE_ERRORS,
    ...SIGN_IN_ATTEMPT_ERRORS,
  ],
  output: v.strictObject({ nonce: v.string() }),
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    if (!project.config.magicLinkEnabled) throw new StatusError('forbidden', 'OTP sign-in is not enabled for this project');
    assertCallbackUrlTrusted(ctx.runtime, project, body.callback_url);
    const email = normalizeEmail(body.email);
    await checkSignInAttempt(ctx, project, { email, method: 'otp' });
    await enforceEmailLimits(ctx, email);
    const botChallenge = await assessBotChallenge(ctx, project, body, 'send_magic_link_email');
    return ctx.transaction(async (tx) => {
      const found = await findAuthEmailChannel(tx.db, project.id, email);
      assertOtpMayReach(found, email);
      if (!found && !project.config.signUpEnabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
      const existing = found?.user ?? null;
      const data: OtpSignInData = {
        email,
        callback_url: body.callback_url,
        turnstile_result: botChallenge.result,
        ...(botChallenge.visibleResult ? { turnstile_visible_challenge_result: botChallenge.visibleResult } : {}),
      };
      const { code } = await createVerificationCode(tx, {
        projectId: project.id,
        purpose: 'otp_sign_in',
        data,
        email,
        userId: existing?.id ?? null,
      });
      const { otp, nonce } = splitOtp(code);
      await sendBuiltInEmail(tx, project, {
        kind: 'magic_link',
        to: email,
        userId: existing?.id ?? null,
        secrets: [code, otp],
        vars: { otp, link: linkWithCode(body.callback_url, code), userDisplayName: existing?.display_name ?? '' },
      });
      return { nonce };
    });
  },
});
