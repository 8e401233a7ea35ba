import { StatusError } from '../errors/index.ts';
import { STANDARD_SCOPES } from './wire.ts';

/** The client fields the checks look at (RFC 7591 §2 names). */
export interface ClientFields {
  redirect_uris: string[];
  grant_types: string[];
  token_endpoint_auth_method: string;
  scope: string;
  jwks_uri: string | null;
  jwks: unknown;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether `uri` may be a redirect URI: https; http only to a loopback host (RFC 8252 §7.3);
 * a private-use scheme with a dot for native apps (RFC 8252 §7.1); never a fragment (RFC 6749 §3.1.2).
 */
export function isAllowedRedirectUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol) && !url.protocol.startsWith('javascript');
}

/**
 * Checks a client's fields against each other and the project's scopes (`oidc.scopes`).
 *
 * @throws StatusError bad-request naming the first problem: a code client without redirect
 *   URIs, a disallowed redirect URI, a public client (`none`) asking for client credentials, a
 *   `private_key_jwt` client without keys, or a scope the project does not define.
 */
export function checkClientFields(client: ClientFields, projectScopes: readonly string[]): void {
  const grants = new Set(client.grant_types);
  if (grants.has('authorization_code') && client.redirect_uris.length === 0)
    throw new StatusError('bad-request', 'redirect_uris: an authorization_code client needs at least one redirect URI.');
  for (const uri of client.redirect_uris)
    if (!isAllowedRedirectUri(uri))
      throw new StatusError(
        'bad-request',
        `redirect_uris: ${uri} is not allowed (https, http to a loopback host, or a private-use scheme; no fragment).`,
      );
  if (grants.has('refresh_token') && !grants.has('authorization_code') && !grants.has('urn:ietf:params:oauth:grant-type:device_code'))
    throw new StatusError('bad-request', 'grant_types: refresh_token needs authorization_code or the device code grant.');
  if (client.token_endpoint_auth_method === 'none' && grants.has('client_credentials'))
    throw new StatusError('bad-request', 'grant_types: a public client (token_endpoint_auth_method none) cannot use client_credentials.');
  if (client.token_endpoint_auth_method === 'private_key_jwt' && !client.jwks_uri && !client.jwks)
    throw new StatusError('bad-request', 'jwks: a private_key_jwt client needs jwks or jwks_uri.');
  if (client.jwks_uri && client.jwks) throw new StatusError('bad-request', 'jwks: give jwks or jwks_uri, not both.');
  const known = new Set<string>([...STANDARD_SCOPES, ...projectScopes]);
  for (const scope of client.scope.split(' '))
    if (!known.has(scope)) throw new StatusError('bad-request', `scope: ${scope} is not a scope of this project (add it to oidc.scopes).`);
}
