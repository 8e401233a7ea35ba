import * as oauth from 'oauth4webapi';
import { KnownError } from '../../errors/index.ts';
import { isBuiltInOAuthProviderId, type OAuthProviderConfig } from '../../config/project-config.ts';
import type { Project } from '../../projects/index.ts';
import type { Runtime } from '../../runtime.ts';
import { BUILT_IN_PROVIDERS, fromOidcClaims } from './builtin.ts';
import { assertDevProviderAvailable, devProviderClientSecret, devProviderIssuer } from './dev-provider.ts';
import type { ProviderEndpoints, ProviderFetch, ProviderTokens, ProviderUserInfo } from './types.ts';
import { guardedFetch, isPrivateAddressError } from '../../lib/outbound-fetch.ts';

/** A provider ready to use: oauth4webapi's server and client metadata plus Gatehouse's quirks. */
export interface ResolvedProvider {
  id: string;
  displayName: string;
  /** The project's provider config entry. */
  config: OAuthProviderConfig;
  /** `shared`: the built-in development provider stands in. */
  isShared: boolean;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  clientAuth: oauth.ClientAuth;
  /** Scopes always requested (space-separated), before the app's `provider_scope`. */
  baseScope: string;
  extraAuthorizationParams: Record<string, string>;
  omitScope: boolean;
  /** True when an ID Token is expected and validated (signature, iss, aud, exp, nonce). */
  openid: boolean;
  /** oauth4webapi request options: plain http only for loopback or non-production servers; the outbound guard's fetch. */
  requestOptions: { [oauth.allowInsecureRequests]?: boolean; [oauth.customFetch]: typeof fetch };
  userInfo(tokens: ProviderTokens): Promise<ProviderUserInfo>;
}

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const discoveryCache = new Map<string, { at: number; as: oauth.AuthorizationServer }>();

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '127.0.0.1' || host === '::1';
  } catch {
    return false;
  }
}

/** Plain http is accepted for loopback endpoints, and for any endpoint outside the production environment. */
function insecureAllowed(runtime: Runtime, urls: string[]): boolean {
  const plain = urls.filter((u) => u.startsWith('http://'));
  return plain.length > 0 && (runtime.environment !== 'production' || plain.every(isLoopback));
}

/**
 * The fetch for every URL of a provider (issuer, discovery's token, JWKS and userinfo endpoints,
 * built-in resource reads): in production mode it refuses loopback, link-local and private
 * addresses (core/lib/outbound-fetch.ts), except hosts the operator listed in
 * GATEHOUSE_OUTBOUND_PRIVATE_HOSTS; outside production everything is allowed (tests run
 * oidc-provider on loopback).
 */
export function providerOutboundFetch(runtime: Runtime): typeof fetch {
  return guardedFetch({
    allowPrivate: (host) => runtime.environment !== 'production' || runtime.outboundPrivateHosts.has(host),
  }) as typeof fetch;
}

/**
 * Maps a failure talking to a provider to a known error: the outbound guard's refusal to
 * OAUTH_PROVIDER_URL_NOT_ALLOWED, known errors as they are, anything else (unreachable, invalid
 * answer) to `fallback`, logged.
 */
export function providerFailure(
  runtime: Runtime,
  error: unknown,
  fallback: 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED' | 'OAUTH_PROVIDER_ACCESS_DENIED',
  context: Record<string, unknown>,
): KnownError {
  if (error instanceof KnownError) return error;
  if (isPrivateAddressError(error)) {
    runtime.log.warn({ ...context, err: String(error) }, 'OAuth provider URL refused: private address');
    return new KnownError('OAUTH_PROVIDER_URL_NOT_ALLOWED');
  }
  runtime.log.warn(
    { ...context, err: String(error), cause: JSON.stringify((error as { cause?: unknown }).cause ?? null)?.slice(0, 500) },
    'OAuth provider request failed',
  );
  return new KnownError(fallback);
}

/**
 * Fetches and validates an issuer's discovery document (OpenID Connect Discovery 1.0 §4), cached
 * 10 minutes per issuer.
 *
 * @throws KnownError OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED when the issuer cannot be reached or
 * its document is invalid (the provider is unusable as configured); OAUTH_PROVIDER_URL_NOT_ALLOWED
 * when the outbound guard refuses its address.
 */
async function discover(runtime: Runtime, issuerUrl: string): Promise<oauth.AuthorizationServer> {
  const now = Date.now();
  const cached = discoveryCache.get(issuerUrl);
  if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.as;
  const issuer = new URL(issuerUrl);
  try {
    const response = await oauth.discoveryRequest(issuer, {
      algorithm: 'oidc',
      [oauth.allowInsecureRequests]: insecureAllowed(runtime, [issuerUrl]),
      [oauth.customFetch]: providerOutboundFetch(runtime),
      signal: AbortSignal.timeout(10_000),
    });
    const as = await oauth.processDiscoveryResponse(issuer, response);
    if (discoveryCache.size > 500) discoveryCache.clear();
    discoveryCache.set(issuerUrl, { at: now, as });
    return as;
  } catch (error) {
    throw providerFailure(runtime, error, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', { issuer: issuerUrl });
  }
}

/** GET a JSON resource with a bearer token; a failure means the provider refused the account. */
function providerFetch(runtime: Runtime, outbound: typeof fetch): ProviderFetch {
  return async (url, accessToken, headers = {}) => {
    const response = await outbound(url, {
      headers: { accept: 'application/json', 'user-agent': 'gatehouse', ...headers, authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      runtime.log.warn({ url, status: response.status }, 'OAuth provider resource request failed');
      throw new KnownError('OAUTH_PROVIDER_ACCESS_DENIED');
    }
    return response.json();
  };
}

function clientAuthFor(method: 'client_secret_basic' | 'client_secret_post', secret: string): oauth.ClientAuth {
  return method === 'client_secret_basic' ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret);
}

/** Finds the enabled provider `providerId` of a project, or null. */
export function findProviderConfig(project: Project, providerId: string): OAuthProviderConfig | null {
  return project.config.oauthProviders.find((p) => p.id === providerId && p.enabled) ?? null;
}

/**
 * Builds everything needed to talk to a project's provider: the development provider for `shared`
 * entries (refused when the server or the project runs in production mode; its identities are
 * never verified), a built-in provider's endpoints (with the test-only
 * overrides of `runtime.oauthEndpointOverrides`), or a generic OpenID provider's discovered metadata.
 *
 * @throws KnownError OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED when the provider is not configured,
 * is disabled; OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION when it is `shared` and the server
 * (`GATEHOUSE_ENVIRONMENT=production`) or the project is in production mode.
 */
export async function resolveProvider(runtime: Runtime, project: Project, providerId: string): Promise<ResolvedProvider> {
  const config = findProviderConfig(project, providerId);
  if (!config) throw new KnownError('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
  const outbound = providerOutboundFetch(runtime);
  const get = providerFetch(runtime, outbound);
  const builtIn = isBuiltInOAuthProviderId(config.id) ? BUILT_IN_PROVIDERS[config.id]! : null;
  const displayName = builtIn?.displayName ?? config.displayName ?? config.id;

  if (config.type === 'shared') {
    assertDevProviderAvailable(runtime, project, config.id);
    const issuer = devProviderIssuer(runtime);
    const as: oauth.AuthorizationServer = {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      id_token_signing_alg_values_supported: ['ES256'],
    };
    const clientId = `${project.id}:${config.id}`;
    return {
      id: config.id,
      displayName,
      config,
      isShared: true,
      as,
      client: { client_id: clientId },
      clientAuth: oauth.ClientSecretPost(devProviderClientSecret(runtime, clientId)),
      baseScope: 'openid email profile',
      extraAuthorizationParams: {},
      omitScope: false,
      openid: true,
      requestOptions: { [oauth.allowInsecureRequests]: insecureAllowed(runtime, [issuer]), [oauth.customFetch]: outbound },
      // Anyone may pick any email on the development provider's page: its identities are never
      // verified, so they are never linked to an existing account by email (accounts.ts).
      userInfo: async (tokens) => ({ ...fromOidcClaims(tokens.idTokenClaims ?? {}), emailVerified: false }),
    };
  }

  const client: oauth.Client = { client_id: config.clientId ?? '' };
  const secret = config.clientSecret ?? '';
  if (builtIn) {
    const endpoints: ProviderEndpoints = {
      ...builtIn.endpoints({ microsoftTenantId: config.microsoftTenantId }),
      ...runtime.oauthEndpointOverrides[builtIn.id],
    };
    const as: oauth.AuthorizationServer = {
      issuer: endpoints.issuer ?? new URL(endpoints.authorizationEndpoint).origin,
      authorization_endpoint: endpoints.authorizationEndpoint,
      token_endpoint: endpoints.tokenEndpoint,
      ...(endpoints.userinfoEndpoint ? { userinfo_endpoint: endpoints.userinfoEndpoint } : {}),
      ...(endpoints.jwksUri ? { jwks_uri: endpoints.jwksUri } : {}),
    };
    const options = { facebookConfigId: config.facebookConfigId };
    return {
      id: builtIn.id,
      displayName,
      config,
      isShared: false,
      as,
      client,
      clientAuth: clientAuthFor(builtIn.clientAuth, secret),
      baseScope: builtIn.baseScope,
      extraAuthorizationParams: builtIn.extraAuthorizationParams?.(options) ?? {},
      omitScope: builtIn.omitScopeWhen?.(options) ?? false,
      openid: !!builtIn.openid,
      requestOptions: {
        [oauth.allowInsecureRequests]: insecureAllowed(
          runtime,
          Object.values(endpoints).filter((u): u is string => typeof u === 'string'),
        ),
        [oauth.customFetch]: outbound,
      },
      userInfo: (tokens) => builtIn.userInfo(tokens, endpoints, get, client.client_id),
    };
  }

  // Any OpenID Connect provider, by issuer.
  return resolveOpenIdProvider(runtime, config, displayName);
}

/**
 * A generic OpenID Connect provider from its issuer (discovery cached 10 minutes, every request
 * through the outbound guard): the project's generic OAuth providers, and the OpenID connections
 * of teams (core/sso). Client authentication is `client_secret_basic` unless the provider only
 * announces `client_secret_post`; the ID Token is always required and validated, and the
 * userinfo endpoint read when announced.
 *
 * @throws KnownError OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED when the issuer cannot be discovered;
 * OAUTH_PROVIDER_URL_NOT_ALLOWED when the outbound guard refuses its address.
 */
export async function resolveOpenIdProvider(
  runtime: Runtime,
  config: OAuthProviderConfig,
  displayName = config.displayName ?? config.id,
): Promise<ResolvedProvider> {
  const outbound = providerOutboundFetch(runtime);
  const client: oauth.Client = { client_id: config.clientId ?? '' };
  const secret = config.clientSecret ?? '';
  const as = await discover(runtime, config.issuerUrl ?? '');
  const methods = as.token_endpoint_auth_methods_supported;
  const method =
    methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
      ? 'client_secret_post'
      : 'client_secret_basic';
  const requestOptions = {
    [oauth.allowInsecureRequests]: insecureAllowed(runtime, [
      config.issuerUrl ?? '',
      as.token_endpoint ?? '',
      as.userinfo_endpoint ?? '',
      as.jwks_uri ?? '',
    ]),
    [oauth.customFetch]: outbound,
  };
  return {
    id: config.id,
    displayName,
    config,
    isShared: false,
    as,
    client,
    clientAuth: clientAuthFor(method, secret),
    baseScope: 'openid email profile',
    extraAuthorizationParams: {},
    omitScope: false,
    openid: true,
    requestOptions,
    async userInfo(tokens) {
      const claims = tokens.idTokenClaims ?? {};
      if (!as.userinfo_endpoint) return fromOidcClaims(claims);
      const response = await oauth.userInfoRequest(as, client, tokens.accessToken, requestOptions);
      const info = (await oauth.processUserInfoResponse(as, client, String(claims.sub ?? ''), response)) as Record<string, unknown>;
      return fromOidcClaims(claims, info);
    },
  };
}
