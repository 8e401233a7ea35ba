import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { findUserByAuthEmail, updateUser, type UserRow } from '../users/index.ts';
import { finishSignIn, FINISH_SIGN_IN_ERRORS, SignInOutput } from '../mfa/index.ts';
import { reserveHashing, hashPassword, verifyAgainstDummy, verifyPassword } from './hashing.ts';
import { claimSignInAttempt, enforceRateLimit } from '../throttle/index.ts';
import { recordSignInFailure } from '../sign-in-log/index.ts';
import { checkSignInAttempt, SIGN_IN_ATTEMPT_ERRORS } from '../sign-up-rules/index.ts';
import { assessBotChallenge, BOT_CHALLENGE_ERRORS, BotChallengeBodyEntries, takesPartInChallenge } from '../bot-challenge/index.ts';

/**
 * Signs in with email and password (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/).
 *
 * An unknown email, a user without a password and a wrong password all answer the same error
 * after one password verification (no account enumeration through timing). Refused when
 * `credential_enabled` is off. A verified imported
 * (hash-formats.ts) or outdated argon2 hash is replaced by an argon2id hash, computed outside any transaction.
 * A user with TOTP on gets the multi-factor challenge instead of tokens (`finishSignIn`).
 *
 * Throttled (docs/security.md): per client address, and per email with
 * growing delays after failures (429 with `Retry-After`), suspended after 100 consecutive failures.
 * A full password-hashing queue also answers 429 with `Retry-After` (core/lib/admission.ts).
 *
 * Gatehouse extension: the `bot_challenge_*` fields of sign-up are accepted too. A client
 * in the challenge flow (a phase given) is checked as on sign-up (action `sign_in_with_credential`:
 * BOT_CHALLENGE_REQUIRED, BOT_CHALLENGE_FAILED) before the password is; without a phase nothing is
 * verified (upstream checks no bot challenge on password sign-in, so its SDK sends none).
 */
export const signInWithPassword = defineOperation({
  id: 'authPassword.signIn',
  method: 'POST',
  path: '/auth/password/sign-in',
  summary: 'Sign in with email and password.',
  access: ['client', 'server', 'admin'],
  // An empty email is a schema error, as upstream's `signInEmailSchema` makes it; other strings are
  // looked up as given (an unknown address answers EMAIL_PASSWORD_MISMATCH, no enumeration).
  input: {
    body: v.strictObject({
      email: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
      password: v.string(),
      ...BotChallengeBodyEntries,
    }),
  },
  errors: [
    'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    'EMAIL_PASSWORD_MISMATCH',
    ...FINISH_SIGN_IN_ERRORS,
    ...BOT_CHALLENGE_ERRORS,
    ...SIGN_IN_ATTEMPT_ERRORS,
  ],
  output: SignInOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    if (!project.config.credentialEnabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    const email = normalizeEmail(body.email);
    await enforceRateLimit(ctx, 'sign_in_per_address');
    await checkSignInAttempt(ctx, project, { email, method: 'password' });
    if (takesPartInChallenge(body)) await assessBotChallenge(ctx, project, body, 'sign_in_with_credential');
    // A full hashing queue answers 429 before the attempt is counted (core/lib/admission.ts).
    const slot = reserveHashing();
    let user: UserRow;
    let needsRehash: boolean;
    try {
      const attempt = await claimSignInAttempt(ctx, 'password', email);
      const found = await findUserByAuthEmail(ctx.db, project.id, email);
      if (!found || found.password_hash === null) {
        await verifyAgainstDummy(body.password, ctx.runtime.passwordHashCost, slot);
        await recordSignInFailure(ctx.runtime.db, {
          projectId: project.id,
          userId: found?.id ?? null,
          factor: 'password',
          reason: found ? 'no_password' : 'unknown_email',
          now: ctx.now,
        });
        throw new KnownError('EMAIL_PASSWORD_MISMATCH');
      }
      const verified = await verifyPassword(found.password_hash, body.password, ctx.runtime.passwordHashCost, slot);
      if (!verified.ok) {
        await recordSignInFailure(ctx.runtime.db, {
          projectId: project.id,
          userId: found.id,
          factor: 'password',
          reason: 'wrong_password',
          now: ctx.now,
        });
        throw new KnownError('EMAIL_PASSWORD_MISMATCH');
      }
      await attempt.succeeded();
      user = found;
      needsRehash = verified.needsRehash;
    } finally {
      slot.release();
    }
    if (needsRehash) {
      const upgraded = await hashPassword(body.password, ctx.runtime.passwordHashCost);
      await updateUser(ctx.db, project.id, user.id, { password_hash: upgraded });
    }
    return finishSignIn(ctx, project, user);
  },
});
