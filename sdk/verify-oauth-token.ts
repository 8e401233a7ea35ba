import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

/**
 * Where the identity provider of a Gatehouse project is: its issuer URL
 * (`<base url>/api/v1/projects/<project id>/oidc`, as discovery's `issuer` says), or the project
 * id and the Gatehouse base URL it is built from.
 */
export type OAuthIssuerOptions = { issuer: string } | { projectId: string; baseUrl: string };

/** Options of {@link verifyOAuthAccessToken}. */
export type VerifyOAuthAccessTokenOptions = OAuthIssuerOptions & {
  /**
   * This API's resource indicator (RFC 8707 §2), e.g. `https://mcp.example.com/mcp`: the token's
   * `aud` must name it (RFC 9068 §4), so a token minted for another API is refused.
   */
  resource: string;
  /** Scopes the request needs; a token lacking one is `insufficient_scope` (RFC 6750 §3.1). */
  scopes?: readonly string[];
  /** Leeway for `exp`, `nbf` and `iat`, in seconds (default 5). */
  clockToleranceSeconds?: number;
  /** The keys to verify with; default the issuer's JWKS (`<issuer>/jwks`), fetched and cached per issuer. */
  keys?: JWTVerifyGetKey;
};

/**
 * A verified access token. Its shape is also the MCP SDK's `AuthInfo` (`token`, `clientId`,
 * `scopes`, `expiresAt`, `resource`), so it can be handed to the MCP server transport as
 * `req.auth` as it is.
 */
export interface OAuthAccessToken {
  token: string;
  /** `client_id` (RFC 9068 §2.2): the OAuth client the token was issued to. */
  clientId: string;
  /** The granted scopes (`scope`, space-separated in the token). */
  scopes: string[];
  /** `exp`, seconds since the epoch. */
  expiresAt: number;
  /** The resource the token is for (the verified audience). */
  resource: URL;
  /** `sub`: the Gatehouse user id, or the client id for a client-credentials token (RFC 9068 §2.2). */
  subject: string;
  /** Whether a user stands behind the token (false for client credentials: `sub` is then the client). */
  isUser: boolean;
  /** Every claim of the token, custom claims of the project's claims template included. */
  claims: JWTPayload;
}

/**
 * Why a token was refused, with RFC 6750 §3.1's codes: `invalid_request` (400: malformed
 * request), `invalid_token` (401: missing, expired, forged, wrong issuer or audience, or not an
 * RFC 9068 token), `insufficient_scope` (403; `scopes` lists the ones needed). A request that
 * carried no token at all has `missing: true` and, per RFC 6750 §3.1, no error code belongs in
 * its challenge.
 */
export interface OAuthTokenError {
  code: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  description: string;
  /** The scopes the request needs (for the challenge's `scope`). */
  scopes: string[];
  missing?: boolean;
}

/** Outcome of {@link verifyOAuthAccessToken}: never throws for a bad token. */
export type OAuthTokenResult = { status: 'ok'; data: OAuthAccessToken } | { status: 'error'; error: OAuthTokenError };

/** The issuer URL of {@link OAuthIssuerOptions} (no trailing slash). */
export function oauthIssuerOf(options: OAuthIssuerOptions): string {
  if ('issuer' in options) return options.issuer.replace(/\/+$/, '');
  return `${options.baseUrl.replace(/\/+$/, '')}/api/v1/projects/${encodeURIComponent(options.projectId)}/oidc`;
}

/** Remote key sets by JWKS URL: one per issuer, so keys are fetched once and refetched on an unknown `kid` (jose's cooldown applies). */
const remoteKeySets = new Map<string, JWTVerifyGetKey>();
const MAX_KEY_SETS = 100;

function issuerKeys(issuer: string): JWTVerifyGetKey {
  const url = `${issuer}/jwks`;
  let keys = remoteKeySets.get(url);
  if (!keys) {
    if (remoteKeySets.size >= MAX_KEY_SETS) remoteKeySets.delete(remoteKeySets.keys().next().value!);
    keys = createRemoteJWKSet(new URL(url));
    remoteKeySets.set(url, keys);
  }
  return keys;
}

const fail = (code: OAuthTokenError['code'], description: string, scopes: readonly string[], missing?: boolean): OAuthTokenResult => ({
  status: 'error',
  error: { code, description, scopes: [...scopes], ...(missing ? { missing } : {}) },
});

/**
 * Verifies an OAuth access token that a Gatehouse project's identity provider issued for this
 * API (a resource server): a JWT access token (RFC 9068) — header `typ: at+jwt` (§2.1), ES256
 * signature by a key of the issuer's JWKS, `iss` the project's issuer, `aud` this `resource`
 * (§4, the RFC 8707 resource indicator the client asked for), unexpired — carrying every scope in
 * `options.scopes`. Gatehouse answers a token request with a `resource` this way; the opaque
 * tokens of requests without one are for the issuer's own userinfo endpoint and are refused here.
 *
 * The MCP authorization spec (https://modelcontextprotocol.io/specification/2025-06-18/basic/authorization,
 * "Token Handling") asks exactly this of an MCP server: accept only tokens issued for itself.
 *
 * @param token the bearer token (without `Bearer `); `undefined` or empty reads as missing.
 * @returns `{ status: 'ok', data }` or `{ status: 'error', error }` with RFC 6750's code; never throws for a bad token
 *   (a JWKS that cannot be fetched is `invalid_token` too, so a request is refused, not failed).
 */
export async function verifyOAuthAccessToken(token: string | undefined, options: VerifyOAuthAccessTokenOptions): Promise<OAuthTokenResult> {
  const scopes = options.scopes ?? [];
  if (!token) return fail('invalid_token', 'An access token is required.', scopes, true);
  const issuer = oauthIssuerOf(options);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, options.keys ?? issuerKeys(issuer), {
      issuer,
      audience: options.resource,
      typ: 'at+jwt',
      algorithms: ['ES256'],
      requiredClaims: ['exp', 'sub', 'client_id'],
      clockTolerance: options.clockToleranceSeconds ?? 5,
    }));
  } catch (error) {
    return fail('invalid_token', describeJoseError(error), scopes);
  }
  const granted = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  const missingScopes = scopes.filter((s) => !granted.includes(s));
  if (missingScopes.length > 0) return fail('insufficient_scope', `The token lacks the scope ${missingScopes.join(' ')}.`, scopes);
  const clientId = String(payload.client_id);
  return {
    status: 'ok',
    data: {
      token,
      clientId,
      scopes: granted,
      expiresAt: payload.exp!,
      resource: new URL(options.resource),
      subject: payload.sub!,
      isUser: payload.sub !== clientId,
      claims: payload,
    },
  };
}

function describeJoseError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The access token expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `The access token's ${error.claim} claim is not for this resource server.`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey)
    return 'The access token is not signed by the issuer.';
  return 'The access token is not valid.';
}
