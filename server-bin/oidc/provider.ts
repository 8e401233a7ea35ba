import { createPublicKey, sign as cryptoSign, type KeyObject } from 'node:crypto';

/** oidc-provider's Provider class. */
export type ProviderClass = typeof import('oidc-provider').default;

let providerClass: ProviderClass | null = null;
let externalSigningKey: any = null;

/**
 * Loads `oidc-provider` on first use of an issuer, not at start: importing it prints "Unsupported
 * runtime" on Node 20 (it works there), which every other `gatehouse` command
 * and a server without the identity provider would otherwise show.
 */
export async function loadProviderClass(): Promise<ProviderClass> {
  if (!providerClass) {
    const module = await import('oidc-provider');
    externalSigningKey = module.ExternalSigningKey;
    providerClass = module.default;
  }
  return providerClass!;
}

/**
 * A project key as oidc-provider's `ExternalSigningKey` (its `externalSigningSupport` feature):
 * signatures come from node:crypto's asynchronous ECDSA on libuv's thread pool (IEEE P1363, as
 * ES256 wants, RFC 7518 §3.4) instead of WebCrypto on the main thread, which cost about three
 * times the CPU per token in the identity-provider benchmark's profile.
 */
function externalKey(kid: string, privateKey: KeyObject): unknown {
  const publicKey = createPublicKey(privateKey);
  const key = new (class extends externalSigningKey {
    keyObject() {
      return publicKey;
    }
    sign(data: Buffer): Promise<Buffer> {
      return new Promise((resolve, reject) =>
        cryptoSign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }, (error, signature) =>
          error ? reject(error) : resolve(signature),
        ),
      );
    }
  })();
  key.kid = kid;
  key.alg = 'ES256';
  return key;
}
import type { Runtime } from '../../core/runtime.ts';
import {
  accountClaims,
  grantAccountClaims,
  oidcIssuer,
  oidcModelStore,
  oidcSigningKeys,
  oidcSigningKeyIds,
  STANDARD_SCOPES,
  type Project,
} from '../../core/index.ts';
import { successSource, userCodeConfirmSource, userCodeInputSource } from './device-pages.ts';

/** Lifetimes in seconds (oidc-provider `ttl`). */
const TTL = {
  AccessToken: 3600,
  ClientCredentials: 3600,
  AuthorizationCode: 60,
  IdToken: 3600,
  DeviceCode: 600,
  Interaction: 3600,
  Grant: 14 * 24 * 3600,
  Session: 14 * 24 * 3600,
  RefreshToken: 14 * 24 * 3600,
  RegistrationAccessToken: 365 * 24 * 3600,
} as const;

/**
 * Whether `resource` may be a resource indicator (RFC 8707 §2): an absolute http(s) URI without
 * a fragment; http only in non-production environments or to a loopback host.
 */
function isResourceIndicator(resource: string, production: boolean): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (!production || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
}

/** A fingerprint of what a project's provider is built from: a change rebuilds it (provider-cache.ts). */
export function providerFingerprint(runtime: Runtime, project: Project): string {
  return JSON.stringify([project.config.oidc, oidcSigningKeyIds(runtime, project.id)]);
}

/**
 * Builds the `oidc-provider` instance of one project (https://github.com/panva/node-oidc-provider/blob/v9.x/docs/README.md):
 * storage through core/oauth-provider (Kysely tables), the project's ES256 keys, S256-only PKCE
 * (the default of v9), refresh-token rotation (a reused refresh token revokes the whole grant),
 * client credentials, introspection (RFC 7662), revocation (RFC 7009), resource indicators
 * (RFC 8707) answered with JWT access tokens (RFC 9068) for that audience, dynamic registration
 * (RFC 7591) per `oidc.dynamicClientRegistration`, the device flow (RFC 8628) and RP-initiated
 * logout. Sign-in and consent are the host's interaction pages (interaction.ts).
 */
export function buildProvider(runtime: Runtime, project: Project, Provider: ProviderClass): any {
  const issuer = oidcIssuer(runtime.baseUrl, project.id);
  const { oidc } = project.config;
  const production = runtime.environment === 'production';
  const scopes = [...new Set<string>([...STANDARD_SCOPES, ...oidc.scopes])];
  const resourceScope = oidc.scopes.join(' ');
  const dcr = oidc.dynamicClientRegistration;
  const customClaimNames = Object.keys(oidc.claimsTemplate);
  const provider = new Provider(issuer, {
    adapter: class {
      constructor(model: string) {
        return oidcModelStore(runtime, project.id, model);
      }
    },
    jwks: { keys: oidcSigningKeys(runtime, project.id).map((k) => externalKey(k.kid, k.privateKey)) },
    cookies: { keys: [runtime.deriveKey(`oauth-provider/cookies/${project.id}`).toString('base64url')] },
    scopes,
    claims: {
      // The claims template's claims come with openid (ID tokens, userinfo).
      openid: ['sub', ...customClaimNames],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture', 'updated_at'],
    },
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256'],
      userinfoSigningAlgValues: ['ES256'],
      introspectionSigningAlgValues: ['ES256'],
      authorizationSigningAlgValues: ['ES256'],
    },
    ttl: TTL,
    rotateRefreshToken: true,
    // A user's access tokens carry the claims template's claims too (in the JWT of a resource
    // indicator, in introspection otherwise); client-credentials tokens have no user.
    async extraTokenClaims(_ctx: unknown, token: { accountId?: string }) {
      if (customClaimNames.length === 0 || !token.accountId) return undefined;
      const claims = await accountClaims(runtime, project, token.accountId);
      return claims ? Object.fromEntries(customClaimNames.filter((n) => n in claims).map((n) => [n, claims[n]])) : undefined;
    },
    // ID tokens carry the standard claims of the granted scopes too, not only userinfo.
    conformIdTokenClaims: false,
    issueRefreshToken: async (_ctx: unknown, client: any, code: any) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    // A deleted user, or (for a grant approved in the hosted pages) a signed-out Gatehouse session,
    // has no account: the provider then refuses its refresh tokens with invalid_grant.
    async findAccount(_ctx: unknown, sub: string, token?: { grantId?: string }) {
      const claims = await grantAccountClaims(runtime, project, sub, token?.grantId);
      return claims ? { accountId: sub, claims: async () => claims } : undefined;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${new URL(issuer).pathname}/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      externalSigningSupport: { enabled: true, ack: 'experimental-01' },
      clientCredentials: { enabled: true },
      // RFC 7662 §4: a confidential client (a resource server) may introspect any token of the
      // project; a public client only its own. RFC 7009 §2.1: a client revokes only its own tokens.
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: any, token: any) =>
          client.clientAuthMethod !== 'none' || token.clientId === client.clientId,
      },
      revocation: { enabled: true, allowedPolicy: async (_ctx: unknown, client: any, token: any) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      // RFC 8628: the code entry, confirmation and success pages in the provider pages' look (device-pages.ts).
      deviceFlow: { enabled: true, userCodeInputSource, userCodeConfirmSource, successSource },
      registration: {
        enabled: dcr !== 'off',
        initialAccessToken: dcr === 'initial_access_token',
        idFactory: () => `gh_${crypto.randomUUID().replaceAll('-', '')}`,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf,
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx: unknown, resource: string) {
          if (!isResourceIndicator(resource, production)) {
            const { InvalidTarget } = (Provider as any).errors;
            throw new InvalidTarget('resource must be an absolute https URI without a fragment');
          }
          return {
            scope: resourceScope,
            audience: resource,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    pkce: { required: () => true },
    renderError(ctx: any, out: Record<string, string>) {
      ctx.type = 'json';
      ctx.body = { error: out.error, ...(out.error_description ? { error_description: out.error_description } : {}) };
    },
  });
  // Requests reach the provider with the issuer's host and scheme (entry.ts) from a trusted hop.
  provider.proxy = true;
  // A request that fails before its new browser session was first saved (a forged device-code
  // form, `GET /device/<unknown>`) would have the provider's closing "persist the session" step
  // throw over the real error, a 500; a session never saved has nothing to persist.
  const persist = provider.Session.prototype.persist;
  provider.Session.prototype.persist = function persistSaved(this: { exp?: unknown }) {
    return typeof this.exp === 'number' ? persist.call(this) : Promise.resolve(undefined);
  };
  return provider;
}
