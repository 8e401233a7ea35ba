import { createHash, createHmac } from 'node:crypto';
import { KnownError } from '../../errors/index.ts';
import type { Runtime } from '../../runtime.ts';
import { API_PREFIX } from '../../operations/api-path.ts';

/**
 * Gatehouse's built-in development OpenID provider: what `type: "shared"` provider
 * entries use on a self-hosted server, so OAuth can be tried offline. Its page lets anyone pick
 * any email, so it is refused whenever the server or the project runs in
 * production mode, its identities are never `email_verified`, and they are never linked to an
 * existing account by email.
 */

/**
 * Refuses the development provider when the server runs in production mode
 * (`GATEHOUSE_ENVIRONMENT=production`, the default), whatever the project says, or when the
 * project is in production mode. The one gate every use of it passes (resolveProvider for the
 * authorize and callback steps, and each of the provider's own endpoints).
 *
 * @throws KnownError OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION
 */
export function assertDevProviderAvailable(runtime: Runtime, project: { isProductionMode: boolean } | null, providerId?: string): void {
  if (runtime.environment === 'production' || project?.isProductionMode) {
    throw new KnownError('OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION', providerId ? { provider_id: providerId } : {});
  }
}

/** The issuer of the development provider: `<base>/api/v1/auth/oauth/dev-provider`. */
export function devProviderIssuer(runtime: Runtime): string {
  return `${runtime.baseUrl}${API_PREFIX}/auth/oauth/dev-provider`;
}

/** The development client's secret: HMAC-SHA256 of its client id under a key derived from the server secret. */
export function devProviderClientSecret(runtime: Runtime, clientId: string): string {
  return createHmac('sha256', runtime.deriveKey('gatehouse dev oidc client secrets v1')).update(clientId).digest('base64url');
}

/** The key-ring audience whose ES256 key signs the development provider's ID Tokens. */
export const DEV_PROVIDER_KEY_AUDIENCE = 'gatehouse-dev-oidc-provider';

/** A test identity offered on the development provider's page. */
export interface DevIdentity {
  sub: string;
  email: string;
  name: string;
}

/** A stable subject for an email, so the same test identity is the same account every time. */
export function devIdentityFor(email: string, name?: string): DevIdentity {
  const normalized = email.trim().toLowerCase();
  return {
    sub: createHash('sha256').update(`dev:${normalized}`).digest('hex').slice(0, 24),
    email: normalized,
    name: name ?? normalized.split('@')[0]!,
  };
}

/** The identities the development provider offers by default. */
export const DEV_IDENTITIES: readonly DevIdentity[] = [
  devIdentityFor('ada@example.com', 'Ada Lovelace'),
  devIdentityFor('alan@example.com', 'Alan Turing'),
  devIdentityFor('grace@example.com', 'Grace Hopper'),
];
