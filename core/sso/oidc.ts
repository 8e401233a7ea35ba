import { KnownError } from '../errors/index.ts';
import type { Runtime } from '../runtime.ts';
import { resolveOpenIdProvider } from '../auth-oauth/index.ts';
import { openSecret, ssoProviderId, type SsoConnection } from './connection.ts';

/**
 * An OpenID connection as a generic OpenID provider of core/auth-oauth (discovery, PKCE, ID Token
 * validation, userinfo; every request through the outbound guard).
 *
 * @throws KnownError SSO_CONNECTION_NOT_FOUND when its client secret no longer opens (another
 * server secret); the provider resolution's errors
 */
export function resolveConnectionProvider(runtime: Runtime, connection: SsoConnection) {
  const clientSecret = openSecret(runtime, connection, 'client_secret');
  if (clientSecret === null || !connection.issuerUrl || !connection.clientId) throw new KnownError('SSO_CONNECTION_NOT_FOUND');
  return resolveOpenIdProvider(runtime, {
    id: ssoProviderId(connection.id),
    enabled: true,
    type: 'standard',
    issuerUrl: connection.issuerUrl,
    clientId: connection.clientId,
    clientSecret,
    displayName: connection.displayName ?? 'SSO',
  });
}
