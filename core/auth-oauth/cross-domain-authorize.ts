import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError, redirectUrlNotWhitelisted } from '../errors/index.ts';
import { isRedirectUrlTrusted } from '../config/domains.ts';
import { sha256Hex } from '../lib/hash.ts';
import { findRefreshTokenByHash } from '../sessions/index.ts';
import { redirectTrust } from './client.ts';
import { issueAuthorizationCode } from './authorization-codes.ts';

/**
 * Makes a one-time
 * authorization code (PKCE S256) that hands the caller's session to another trusted domain,
 * redeemed at `/auth/oauth/token` (upstream `auth/oauth/cross-domain/authorize/route.tsx`).
 * Needs a signed-in user and its current refresh token (`Credentials.refreshToken`).
 */
export const crossDomainAuthorize = defineOperation({
  id: 'authOauth.crossDomainAuthorize',
  method: 'POST',
  path: '/auth/oauth/cross-domain/authorize',
  summary: 'Create a one-time code to hand the session to another trusted domain.',
  access: ['client', 'server', 'admin'],
  input: {
    body: v.strictObject({
      redirect_uri: v.pipe(v.string(), v.url('must be a valid URL'), v.maxLength(4096)),
      state: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
      code_challenge: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be a base64url S256 challenge')),
      code_challenge_method: v.optional(v.picklist(['S256'])),
      after_callback_redirect_url: v.optional(v.pipe(v.string(), v.url('must be a valid URL'), v.maxLength(4096))),
    }),
  },
  errors: ['USER_AUTHENTICATION_REQUIRED', 'REDIRECT_URL_NOT_WHITELISTED'],
  output: v.strictObject({ redirect_url: v.string() }),
  async run(ctx, { body }) {
    const { project, user, token } = ctx.auth;
    if (!user || !token) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
    if (!ctx.refreshToken) throw new StatusError('bad-request', 'Cross-domain auth handoff requires passing the current refresh token.');
    const session = await findRefreshTokenByHash(ctx.db, project.id, sha256Hex(ctx.refreshToken));
    if (
      !session ||
      session.id !== token.refresh_token_id ||
      session.user_id !== user.id ||
      (session.expires_at !== null && Number(session.expires_at) <= ctx.now)
    ) {
      throw new StatusError('unauthorized', 'Cross-domain auth handoff refresh token does not match the authenticated session.');
    }
    const trust = redirectTrust(ctx, project);
    for (const url of [body.redirect_uri, body.after_callback_redirect_url ?? null]) {
      if (url !== null && !isRedirectUrlTrusted(url, trust)) throw redirectUrlNotWhitelisted(url);
    }
    const code = await issueAuthorizationCode(ctx, {
      projectId: project.id,
      userId: user.id,
      redirectUri: body.redirect_uri,
      codeChallenge: body.code_challenge,
      isNewUser: false,
      afterCallbackRedirectUrl: body.after_callback_redirect_url ?? null,
      kind: 'handoff',
    });
    const target = new URL(body.redirect_uri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', body.state);
    return { redirect_url: target.toString() };
  },
});
