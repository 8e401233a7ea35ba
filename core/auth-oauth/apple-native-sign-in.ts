import * as v from 'valibot';
import { SIGN_IN_ATTEMPT_ERRORS } from '../sign-up-rules/index.ts';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { FINISH_SIGN_IN_ERRORS, SignInNewUserOutput } from '../mfa/index.ts';
import { findProviderConfig } from './providers/resolve.ts';
import { BUILT_IN_PROVIDERS } from './providers/builtin.ts';
import { settleAccount } from './accounts.ts';
import { assessBotChallenge } from '../bot-challenge/index.ts';
import { completeSignIn } from './sign-in.ts';

const jwksByUrl = new Map<string, JWTVerifyGetKey>();

/**
 * Sign in with Apple from a native iOS/macOS app (ASAuthorizationController), no
 * redirect flow (upstream `auth/oauth/callback/apple/native/route.tsx`). The identity token must
 * be signed by Apple's keys, issued by `https://appleid.apple.com`, and addressed to one of the
 * Apple provider's `apple_bundle_ids`; then the account is signed in or up as in the web flow
 * (merge strategy, sign-up rules), and the multi-factor rule applies.
 */
export const appleNativeSignIn = defineOperation({
  id: 'authOauth.appleNativeSignIn',
  method: 'POST',
  path: '/auth/oauth/callback/apple/native',
  summary: 'Sign in with an identity token from native Sign in with Apple.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ id_token: v.pipe(v.string(), v.minLength(1), v.maxLength(16_384)) }) },
  errors: [
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    'APPLE_BUNDLE_ID_NOT_CONFIGURED',
    'INVALID_APPLE_CREDENTIALS',
    'SIGN_UP_NOT_ENABLED',
    'SIGN_UP_REJECTED',
    'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER',
    'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER',
    'USER_EMAIL_ALREADY_EXISTS',
    ...FINISH_SIGN_IN_ERRORS,
    ...SIGN_IN_ATTEMPT_ERRORS,
  ],
  output: SignInNewUserOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const config = findProviderConfig(project, 'apple');
    if (!config) throw new KnownError('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    const bundleIds = config.appleBundleIds ?? [];
    if (bundleIds.length === 0) throw new KnownError('APPLE_BUNDLE_ID_NOT_CONFIGURED');
    const endpoints = { ...BUILT_IN_PROVIDERS.apple!.endpoints({}), ...ctx.runtime.oauthEndpointOverrides.apple };
    let jwks = jwksByUrl.get(endpoints.jwksUri!);
    if (!jwks) {
      jwks = createRemoteJWKSet(new URL(endpoints.jwksUri!), { timeoutDuration: 10_000 });
      jwksByUrl.set(endpoints.jwksUri!, jwks);
    }
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(body.id_token, jwks, {
        issuer: endpoints.issuer!,
        audience: bundleIds,
        currentDate: new Date(ctx.now),
      }));
    } catch (error) {
      ctx.runtime.log.warn({ err: String(error) }, 'Apple identity token rejected');
      throw new KnownError('INVALID_APPLE_CREDENTIALS');
    }
    if (typeof claims.sub !== 'string' || claims.sub === '') throw new KnownError('INVALID_APPLE_CREDENTIALS');
    const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : null;
    const info = {
      accountId: claims.sub,
      email,
      emailVerified: !!email && (claims.email_verified === true || claims.email_verified === 'true'),
      displayName: null,
      profileImageUrl: null,
    };
    // No widget runs in a native Apple sign-in: a project with a bot challenge counts it `invalid` (upstream).
    const botChallenge = await assessBotChallenge(ctx, project, {}, 'oauth_authenticate');
    const settled = await ctx.transaction((tx) => settleAccount(tx, project, 'apple', info, 'authenticate', null, botChallenge));
    return completeSignIn(ctx, project, settled.user, { is_new_user: settled.isNewUser });
  },
});
