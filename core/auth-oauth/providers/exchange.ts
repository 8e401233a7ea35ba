import * as oauth from 'oauth4webapi';
import type { Runtime } from '../../runtime.ts';
import { providerFailure, type ResolvedProvider } from './resolve.ts';
import type { ProviderTokens } from './types.ts';

/** Gatehouse's own per-flow secrets towards the provider (RFC 9700 §2.1: state, PKCE, nonce). */
export interface ProviderFlowSecrets {
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** Fresh random state, PKCE verifier and nonce (256 bits each, oauth4webapi's generators). */
export function newFlowSecrets(): ProviderFlowSecrets {
  return { state: oauth.generateRandomState(), codeVerifier: oauth.generateRandomCodeVerifier(), nonce: oauth.generateRandomNonce() };
}

/** The scopes of a flow: the provider's base scope plus the app's `provider_scope`, deduplicated. */
export function flowScopes(provider: ResolvedProvider, providerScope: string | undefined): string[] {
  return [...new Set(`${provider.baseScope} ${providerScope ?? ''}`.split(/\s+/).filter(Boolean))];
}

/**
 * The provider's authorization URL (RFC 6749 §4.1.1) with S256 PKCE (RFC 7636), state, and a
 * nonce for OpenID providers.
 */
export async function authorizationUrl(
  provider: ResolvedProvider,
  redirectUri: string,
  secrets: ProviderFlowSecrets,
  scopes: string[],
): Promise<string> {
  const url = new URL(provider.as.authorization_endpoint!);
  url.searchParams.set('client_id', provider.client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  if (!provider.omitScope) url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('state', secrets.state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(secrets.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (provider.openid) url.searchParams.set('nonce', secrets.nonce);
  for (const [key, value] of Object.entries(provider.extraAuthorizationParams)) url.searchParams.set(key, value);
  return url.toString();
}

function tokensFrom(result: oauth.TokenEndpointResponse, now: number): ProviderTokens {
  return {
    accessToken: result.access_token,
    refreshToken: typeof result.refresh_token === 'string' ? result.refresh_token : null,
    accessTokenExpiresAt: typeof result.expires_in === 'number' ? now + result.expires_in * 1000 : null,
    idTokenClaims: (oauth.getValidatedIdTokenClaims(result) as Record<string, unknown> | undefined) ?? null,
  };
}

/**
 * Finishes the provider side of a flow: validates the callback parameters (state, `iss` when the
 * provider announces it, RFC 9207), redeems the code with the PKCE verifier, and for OpenID
 * providers validates the ID Token (claims and nonce, and its signature against the provider's
 * JWKS). Network I/O: never call inside a transaction.
 *
 * @throws KnownError OAUTH_PROVIDER_ACCESS_DENIED when the user declined, or the provider's
 * answers do not validate; OAUTH_PROVIDER_URL_NOT_ALLOWED when the outbound guard refuses the
 * token or JWKS endpoint's address.
 */
export async function redeemProviderCode(
  runtime: Runtime,
  provider: ResolvedProvider,
  callbackParams: URLSearchParams,
  redirectUri: string,
  secrets: ProviderFlowSecrets,
): Promise<ProviderTokens> {
  try {
    const params = oauth.validateAuthResponse(provider.as, provider.client, callbackParams, secrets.state);
    const response = await oauth.authorizationCodeGrantRequest(
      provider.as,
      provider.client,
      provider.clientAuth,
      params,
      redirectUri,
      secrets.codeVerifier,
      { ...provider.requestOptions, signal: AbortSignal.timeout(15_000) },
    );
    const result = await oauth.processAuthorizationCodeResponse(
      provider.as,
      provider.client,
      response,
      provider.openid ? { expectedNonce: secrets.nonce, requireIdToken: true } : undefined,
    );
    if (provider.openid && provider.as.jwks_uri)
      await oauth.validateApplicationLevelSignature(provider.as, response, provider.requestOptions);
    return tokensFrom(result, Date.now());
  } catch (error) {
    throw providerFailure(runtime, error, 'OAUTH_PROVIDER_ACCESS_DENIED', { provider: provider.id });
  }
}

/** Outcome of a refresh at the provider: fresh tokens, or why not. */
export type ProviderRefreshResult = { ok: true; tokens: ProviderTokens } | { ok: false; invalidGrant: boolean };

/**
 * Uses a provider refresh token (RFC 6749 §6), optionally narrowing `scope`. `invalidGrant` says
 * the provider rejected the refresh token itself (it should not be tried again).
 */
export async function refreshAtProvider(
  runtime: Runtime,
  provider: ResolvedProvider,
  refreshToken: string,
  scope: string | undefined,
): Promise<ProviderRefreshResult> {
  try {
    const response = await oauth.refreshTokenGrantRequest(provider.as, provider.client, provider.clientAuth, refreshToken, {
      ...provider.requestOptions,
      signal: AbortSignal.timeout(15_000),
      ...(scope ? { additionalParameters: { scope } } : {}),
    });
    const result = await oauth.processRefreshTokenResponse(provider.as, provider.client, response);
    return { ok: true, tokens: tokensFrom(result, Date.now()) };
  } catch (error) {
    runtime.log.warn({ provider: provider.id, err: String(error) }, 'OAuth provider refresh failed');
    return { ok: false, invalidGrant: error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant' };
  }
}
