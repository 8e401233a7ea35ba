import { createHash } from 'node:crypto';
import { KnownError } from '../errors/index.ts';
import { constantTimeEqual, sha256Hex } from '../lib/hash.ts';
import { secureRandomString } from '../lib/random.ts';
import type { OperationContext } from '../operations/define.ts';
import {
  consumeAuthorizationCode,
  deleteExpiredAuthorizationCodes,
  insertAuthorizationCode,
  type AuthorizationCodeRow,
} from './queries.ts';

/** Lifetime of a Gatehouse authorization code: 5 minutes (RFC 6749 §4.1.2 recommends at most 10). */
export const AUTHORIZATION_CODE_TTL_MS = 5 * 60 * 1000;

/** A redirect URI without its fragment, as compared between authorize and token (RFC 6749 §3.1.2). */
export function withoutFragment(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

/**
 * Issues a single-use authorization code for the app (RFC 6749 §4.1.2), bound to its
 * redirect_uri and S256 PKCE challenge (RFC 7636), stored as its SHA-256.
 *
 * @returns the code to put on the app's redirect.
 */
export async function issueAuthorizationCode(
  ctx: OperationContext,
  fields: {
    projectId: string;
    userId: string;
    redirectUri: string;
    codeChallenge: string;
    isNewUser: boolean;
    afterCallbackRedirectUrl: string | null;
    /**
     * `sign_in` (the token endpoint asks a user with TOTP for the second factor), `handoff`
     * (cross-domain: an already signed-in session moves) or `sso_trusted` (an SSO sign-in whose
     * connection trusts the IdP's MFA: no second factor of ours).
     */
    kind?: 'sign_in' | 'handoff' | 'sso_trusted';
  },
): Promise<string> {
  const code = secureRandomString();
  await deleteExpiredAuthorizationCodes(ctx.db, ctx.now);
  await insertAuthorizationCode(ctx.db, {
    code_hash: sha256Hex(code),
    project_id: fields.projectId,
    user_id: fields.userId,
    redirect_uri: withoutFragment(fields.redirectUri),
    code_challenge: fields.codeChallenge,
    is_new_user: fields.isNewUser,
    kind: fields.kind ?? 'sign_in',
    after_callback_redirect_url: fields.afterCallbackRedirectUrl,
    created_at: ctx.now,
    expires_at: ctx.now + AUTHORIZATION_CODE_TTL_MS,
    used_at: null,
  });
  return code;
}

/**
 * Redeems a code: it is consumed by the first attempt whatever the outcome (a wrong verifier or
 * redirect_uri burns it, so a stolen code gets one guess), then must be unexpired, match the
 * redirect_uri, and `BASE64URL(SHA256(code_verifier))` must equal the challenge (RFC 7636 §4.6).
 *
 * @throws KnownError INVALID_AUTHORIZATION_CODE for an unknown, used, expired or mismatched code.
 */
export async function redeemAuthorizationCode(
  ctx: OperationContext,
  projectId: string,
  code: string,
  redirectUri: string,
  codeVerifier: string,
): Promise<AuthorizationCodeRow> {
  const row = await consumeAuthorizationCode(ctx.db, projectId, sha256Hex(code), ctx.now);
  if (!row || Number(row.expires_at) < ctx.now) throw new KnownError('INVALID_AUTHORIZATION_CODE');
  if (!constantTimeEqual(row.redirect_uri, withoutFragment(redirectUri))) throw new KnownError('INVALID_AUTHORIZATION_CODE');
  const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
  if (!constantTimeEqual(challenge, row.code_challenge)) throw new KnownError('INVALID_AUTHORIZATION_CODE');
  return row;
}
