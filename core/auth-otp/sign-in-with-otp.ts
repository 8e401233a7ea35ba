import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { findUser, updateUser, type UserRow } from '../users/index.ts';
import { checkSignInAttempt, signUpUser, SIGN_IN_ATTEMPT_ERRORS } from '../sign-up-rules/index.ts';
import { findAuthEmailChannel } from '../contact-channels/index.ts';
import { finishSignIn, FINISH_SIGN_IN_ERRORS, SignInNewUserOutput } from '../mfa/index.ts';
import { useVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { assertDashboardSignUpAllowed } from '../dashboard-signup/index.ts';
import type { OtpSignInData } from './send-sign-in-code.ts';
import { assertOtpMayReach } from './ownership.ts';
import { clearSignInFailures, enforceRateLimit } from '../throttle/index.ts';

/**
 * Signs in with an emailed code (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/otp/). `code` is the magic link's code or `otp + nonce` (case-insensitive).
 *
 * The address is looked up among auth-enabled email channels, primary or not (upstream
 * `ensureUserForEmailAllowsOtp`): its user signs in and gets OTP sign-in enabled. Otherwise the
 * first sign-in creates the user with a verified, auth-enabled primary email and `otp_auth_enabled`
 * (plus its personal team when configured) or, when the request carries an anonymous user's token,
 * upgrades that user in place (same id; `is_new_user: true`, as upstream). A channel that is not
 * verified is refused (as taken, with `would_work_if_email_was_verified: true`, as
 * upstream), even if the code was sent before that account existed: someone who never proved the
 * address may hold its password and sessions (account pre-hijacking). The owner
 * takes such an account back with a password reset, which revokes everything (see `resetPassword`).
 *
 * A new user goes through the sign-up rules with the bot challenge of the code's send (upstream).
 * When sign-up is off or the project's sign-up rules refuse a new user, the code stays unused; for
 * a user with TOTP on it is spent and no tokens are issued (the multi-factor challenge).
 */
export const signInWithOtp = defineOperation({
  id: 'authOtp.signIn',
  method: 'POST',
  path: '/auth/otp/sign-in',
  summary: 'Sign in with an emailed code or magic link.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ code: v.string() }) },
  errors: [
    ...VERIFICATION_CODE_ERRORS,
    'SIGN_UP_NOT_ENABLED',
    'SIGN_UP_REJECTED',
    'BOT_CHALLENGE_FAILED',
    'USER_EMAIL_ALREADY_EXISTS',
    ...FINISH_SIGN_IN_ERRORS,
    ...SIGN_IN_ATTEMPT_ERRORS,
  ],
  output: SignInNewUserOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    await enforceRateLimit(ctx, 'sign_in_per_address');
    const { user, isNewUser } = await useVerificationCode<OtpSignInData, { user: UserRow; isNewUser: boolean }>(
      ctx,
      project.id,
      'otp_sign_in',
      body.code,
      async (tx, code) => {
        const email = code.data.email;
        const found = await findAuthEmailChannel(tx.db, project.id, email);
        let user: UserRow;
        let isNewUser = false;
        if (found) {
          assertOtpMayReach(found, email);
          await checkSignInAttempt(tx, project, { email, method: 'otp' });
          await updateUser(tx.db, project.id, found.user.id, { otp_auth_enabled: true });
          // Proving the address lifts a password lockout (docs/security.md "Throttling").
          await clearSignInFailures(tx, project.id, email);
          user = (await findUser(tx.db, project.id, found.user.id))!;
        } else {
          if (!project.config.signUpEnabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
          await assertDashboardSignUpAllowed(tx, email);
          const fields = { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, otp_auth_enabled: true };
          const botChallenge = {
            result: code.data.turnstile_result ?? 'error',
            ...(code.data.turnstile_visible_challenge_result ? { visibleResult: code.data.turnstile_visible_challenge_result } : {}),
          };
          user = await signUpUser(tx, project, { email, authMethod: 'otp', oauthProvider: null, botChallenge }, fields, ctx.auth.user);
          isNewUser = true;
        }
        return { user, isNewUser };
      },
    );
    // After the commit: the code is spent even when a second factor is still due.
    return finishSignIn(ctx, project, user, { is_new_user: isNewUser });
  },
});
