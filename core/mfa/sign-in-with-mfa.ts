import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { findUser } from '../users/index.ts';
import { checkVerificationCode, consumeVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { MFA_ATTEMPT_MAX_TRIES, MFA_ATTEMPT_PURPOSE, issueSignInBody, type MfaAttemptData, SignInNewUserOutput } from './finish-sign-in.ts';
import { matchTotpStep } from './totp.ts';
import { openTotpSecret } from './secret.ts';
import { hashRecoveryCode } from './recovery-codes.ts';
import { claimTotpStep, useRecoveryCode } from './queries.ts';
import { claimSignInAttempt, enforceRateLimit } from '../throttle/index.ts';
import { recordSignInFailure } from '../sign-in-log/index.ts';
import { MfaSignInBodySchema } from './sign-in.ts';

/**
 * Completes a sign-in that answered the multi-factor challenge:
 * `{type: "totp", totp, code}` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/mfa/), or the Gatehouse extension
 * `{type: "recovery_code", recovery_code, code}`, where `code` is the error's `attempt_code`.
 * Answers `{access_token, refresh_token, is_new_user, user_id}`.
 *
 * Every call counts one try against the attempt code (at most 5). A TOTP must match the current 30 s step or one either
 * side and be of a later step than any this user already spent, so a code cannot be used twice
 * (beyond upstream). A wrong or spent recovery code fails like a wrong TOTP. The attempt code, the TOTP step or recovery code, and the new session
 * are consumed in one transaction.
 *
 * @see upstream `auth/mfa/sign-in/verification-code-handler.tsx`; RFC 6238
 */
export const signInWithMfa = defineOperation({
  id: 'mfa.signIn',
  method: 'POST',
  path: '/auth/mfa/sign-in',
  summary: 'Complete a sign-in with a second factor (TOTP or recovery code).',
  access: ['client', 'server', 'admin'],
  input: { body: MfaSignInBodySchema },
  errors: [...VERIFICATION_CODE_ERRORS, 'INVALID_TOTP_CODE'],
  output: SignInNewUserOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    await enforceRateLimit(ctx, 'sign_in_per_address');
    const attempt = await checkVerificationCode<MfaAttemptData>(ctx, project.id, MFA_ATTEMPT_PURPOSE, body.code, {
      maxAttempts: MFA_ATTEMPT_MAX_TRIES,
    });
    // Each password sign-in opens a new attempt code (5 tries), so second-factor guesses are also
    // counted per user, with growing delays.
    const guard = await claimSignInAttempt(ctx, 'mfa', attempt.data.user_id);
    const user = await findUser(ctx.db, project.id, attempt.data.user_id);
    // A user deleted, or whose TOTP was removed, since the attempt began has no factor to check.
    const secret = user ? openTotpSecret(ctx.runtime, user) : null;
    if (!user || secret === null) throw new KnownError('INVALID_TOTP_CODE');
    const step = body.type === 'totp' ? matchTotpStep(secret, body.totp ?? '', ctx.now) : null;
    if (body.type === 'totp' && step === null) {
      await recordSignInFailure(ctx.runtime.db, {
        projectId: project.id,
        userId: user.id,
        factor: 'mfa',
        reason: 'wrong_code',
        now: ctx.now,
      });
      throw new KnownError('INVALID_TOTP_CODE');
    }
    const signedIn = await ctx.transaction(async (tx) => {
      await consumeVerificationCode(tx, attempt);
      const spent =
        body.type === 'totp'
          ? await claimTotpStep(tx.db, project.id, user.id, step!)
          : await useRecoveryCode(tx.db, project.id, user.id, hashRecoveryCode(body.recovery_code ?? ''), tx.now);
      // Throwing rolls the attempt code back to unused: the caller may try again (tries are counted).
      if (!spent) throw new KnownError('INVALID_TOTP_CODE');
      return issueSignInBody(tx, project, user, { is_new_user: attempt.data.is_new_user });
    });
    // Outside the transaction: the counter lives on the database connection, not in it.
    await guard.succeeded();
    return signedIn;
  },
});
