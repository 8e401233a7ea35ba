import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { refreshSession } from '../sessions/index.ts';
import { findUser } from '../users/index.ts';
import { resolveOAuthClient } from './client.ts';
import { redeemAuthorizationCode } from './authorization-codes.ts';
import { completeSignIn, handOffSession } from './sign-in.ts';
import { API_PREFIX } from '../operations/api-path.ts';

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined)
    throw new KnownError('SCHEMA_ERROR', {
      message: `Request validation failed on POST ${API_PREFIX}/auth/oauth/token:\n  - body.${field} must be defined`,
    });
  return value;
}

/**
 * The OAuth token endpoint (form-encoded, RFC 6749 §3.2) that oauth4webapi calls for
 * Stack's SDK. `client_id` is the project id, `client_secret` a publishable key or the sentinel.
 *
 * - `refresh_token` (RFC 6749 §6): a new access token; a bad refresh token answers a catalogue
 *   error, not an OAuth error body (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts).
 * - `authorization_code` (RFC 6749 §4.1.3, PKCE RFC 7636): redeems a Gatehouse code from the OAuth
 *   callback or cross-domain handoff (single use, 5 minutes, bound to redirect_uri and the S256
 *   challenge) → `{access_token, refresh_token, token_type, expires_in, scope, is_new_user,
 *   after_callback_redirect_url}`. A user with TOTP gets the multi-factor challenge instead (upstream `auth/oauth/token/route.tsx`),
 *   except after a cross-domain handoff or an SSO sign-in through a connection that trusts its IdP's MFA.
 */
export const oauthToken = defineOperation({
  id: 'authOauth.token',
  method: 'POST',
  path: '/auth/oauth/token',
  summary: 'OAuth token endpoint (refresh_token and authorization_code grants).',
  access: 'public',
  input: {
    body: v.strictObject({
      grant_type: v.picklist(['refresh_token', 'authorization_code']),
      refresh_token: v.optional(v.pipe(v.string(), v.minLength(1))),
      code: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(256))),
      redirect_uri: v.optional(v.pipe(v.string(), v.maxLength(4096))),
      code_verifier: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(256))),
      client_id: v.string(),
      client_secret: v.optional(v.string()),
      scope: v.optional(v.string()),
      state: v.optional(v.string()),
    }),
  },
  errors: [
    'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
    'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
    'INVALID_AUTHORIZATION_CODE',
    'MULTI_FACTOR_AUTHENTICATION_REQUIRED',
    'SCHEMA_ERROR',
  ],
  output: v.union([
    v.strictObject({
      access_token: v.string(),
      refresh_token: v.string(),
      token_type: v.literal('Bearer'),
      expires_in: v.number(),
      scope: v.literal('legacy'),
    }),
    v.strictObject({
      access_token: v.string(),
      refresh_token: v.string(),
      user_id: v.string(),
      is_new_user: v.boolean(),
      after_callback_redirect_url: v.optional(v.string()),
      token_type: v.literal('Bearer'),
      expires_in: v.number(),
      scope: v.literal('legacy'),
    }),
  ]),
  async run(ctx, { body }) {
    const project = await resolveOAuthClient(ctx, body.client_id, body.client_secret);
    const common = { token_type: 'Bearer', expires_in: Math.floor(ctx.runtime.accessTokenTtlMs / 1000), scope: 'legacy' };
    if (body.grant_type === 'refresh_token') {
      const refreshToken = required(body.refresh_token, 'refresh_token');
      const { accessToken } = await refreshSession(ctx, project, refreshToken);
      return { access_token: accessToken, ...common, refresh_token: refreshToken };
    }
    const code = required(body.code, 'code');
    const redirectUri = required(body.redirect_uri, 'redirect_uri');
    const verifier = required(body.code_verifier, 'code_verifier');
    // Not in a transaction: the consuming UPDATE must stick even when the checks after it fail.
    const row = await redeemAuthorizationCode(ctx, project.id, code, redirectUri, verifier);
    const user = await findUser(ctx.db, project.id, row.user_id);
    if (!user) throw new KnownError('INVALID_AUTHORIZATION_CODE');
    const extra = {
      is_new_user: row.is_new_user,
      ...(row.after_callback_redirect_url !== null ? { after_callback_redirect_url: row.after_callback_redirect_url } : {}),
    };
    // A cross-domain handoff moves an existing, fully signed-in session, and an SSO connection that
    // trusts its IdP's MFA vouches for the second factor: no second factor of ours then.
    const secondFactorDone = row.kind === 'handoff' || row.kind === 'sso_trusted';
    const signedIn = secondFactorDone ? await handOffSession(ctx, project, user, extra) : await completeSignIn(ctx, project, user, extra);
    return { ...signedIn, ...common };
  },
});
