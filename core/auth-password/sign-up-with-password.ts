import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError, redirectUrlNotWhitelisted } from '../errors/index.ts';
import { isRedirectUrlTrusted } from '../config/domains.ts';
import { normalizeEmail } from '../lib/email.ts';
import { EmailSchema } from '../lib/schemas.ts';
import { emailTakenError, findUserByAuthEmail } from '../users/index.ts';
import { checkSignInAttempt, signUpUser, SIGN_IN_ATTEMPT_ERRORS } from '../sign-up-rules/index.ts';
import { issueSession } from '../sessions/index.ts';
import { assertPasswordAcceptable, PASSWORD_RULE_ERRORS } from './rules.ts';
import { hashPassword } from './hashing.ts';
import { runPasswordSignUpHooks } from './hooks.ts';
import { assertDashboardSignUpAllowed } from '../dashboard-signup/index.ts';
import { enforceRateLimit } from '../throttle/index.ts';
import { SignInOutput } from '../mfa/index.ts';
import { assessBotChallenge, BOT_CHALLENGE_ERRORS, BotChallengeBodyEntries } from '../bot-challenge/index.ts';

/**
 * Signs up with email and password (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/).
 *
 * Checks, in the upstream order: password sign-in enabled (`credential_enabled`), the callback
 * trusted (localhost when allowed, a trusted domain, or this server's own origin), sign-up
 * enabled, the password length, the email not taken, and the project's sign-up rules
 * (core/sign-up-rules), after the bot challenge (core/bot-challenge, action
 * `sign_up_with_credential`: BOT_CHALLENGE_REQUIRED asks for the visible retry, BOT_CHALLENGE_FAILED
 * refuses; the result reaches the rules as `turnstileResult`).
 *
 * A request carrying an anonymous user's access token upgrades that user in place (same id, now
 * with email and password, no longer anonymous); otherwise a new user is created with its personal
 * team when `create_team_on_sign_up` is set. The password is hashed before the transaction; the
 * password sign-up listeners (core/hooks.ts: verification email) run inside it.
 */
export const signUpWithPassword = defineOperation({
  id: 'authPassword.signUp',
  method: 'POST',
  path: '/auth/password/sign-up',
  summary: 'Sign up with email and password.',
  access: ['client', 'server', 'admin'],
  input: {
    body: v.strictObject({
      email: EmailSchema,
      password: v.string(),
      verification_callback_url: v.optional(v.nullable(v.string())),
      ...BotChallengeBodyEntries,
    }),
  },
  errors: [
    'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    'REDIRECT_URL_NOT_WHITELISTED',
    'SIGN_UP_NOT_ENABLED',
    ...PASSWORD_RULE_ERRORS,
    'USER_EMAIL_ALREADY_EXISTS',
    'SIGN_UP_REJECTED',
    ...BOT_CHALLENGE_ERRORS,
    ...SIGN_IN_ATTEMPT_ERRORS,
  ],
  output: SignInOutput,
  async run(ctx, { body }) {
    const { project, user: caller } = ctx.auth;
    const config = project.config;
    if (!config.credentialEnabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    const callbackUrl = body.verification_callback_url ?? null;
    if (
      callbackUrl !== null &&
      !isRedirectUrlTrusted(callbackUrl, {
        allowLocalhost: config.allowLocalhost,
        domains: config.domains,
        extraOrigins: [new URL(ctx.runtime.baseUrl).origin],
      })
    ) {
      throw redirectUrlNotWhitelisted(callbackUrl);
    }
    if (!config.signUpEnabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
    await assertDashboardSignUpAllowed(ctx, body.email);
    await assertPasswordAcceptable(body.password, { email: body.email });
    await enforceRateLimit(ctx, 'sign_up_per_address');
    const email = normalizeEmail(body.email);
    // Before the hash (tens of ms); signUpUser asks again inside the transaction.
    await checkSignInAttempt(ctx, project, { email, method: 'password' });
    const botChallenge = await assessBotChallenge(ctx, project, body, 'sign_up_with_credential');
    const passwordHash = await hashPassword(body.password, ctx.runtime.passwordHashCost);

    return ctx.transaction(async (tx) => {
      if (await findUserByAuthEmail(tx.db, project.id, email)) throw emailTakenError(email);
      const fields = { primary_email: email, primary_email_verified: false, primary_email_auth_enabled: true, password_hash: passwordHash };
      const user = await signUpUser(tx, project, { email, authMethod: 'password', oauthProvider: null, botChallenge }, fields, caller);
      await runPasswordSignUpHooks(tx, project, user, { verificationCallbackUrl: callbackUrl });
      const session = await issueSession(tx, project, user);
      return { access_token: session.accessToken, refresh_token: session.refreshToken, user_id: user.id };
    });
  },
});
