/**
 * Browser-only flows (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/): OAuth with PKCE and passkeys. They need `window`,
 * `document`, `crypto.subtle` and, for passkeys, WebAuthn.
 */
import { serialize as serializeCookie } from 'cookie';
import { calculatePKCECodeChallenge, generateRandomCodeVerifier } from 'oauth4webapi';
import { GatehouseKnownError, type Result } from './errors.ts';
import { readCookie } from './tokens.ts';

/** The placeholder relying-party id the server sends; the client replaces it with its hostname. */
export const PASSKEY_RP_ID_SENTINEL = 'THIS_VALUE_WILL_BE_REPLACED.example.com';
/** OAuth state cookie lifetime (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): 3600 s. */
export const OAUTH_STATE_COOKIE_MAX_AGE_S = 3600;

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A random URL-safe string of `bytes` random bytes. */
export function randomUrlSafe(bytes = 32): string {
  return b64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A new PKCE code verifier: 32 random bytes, base64url (RFC 7636 §4.1; oauth4webapi). */
export function pkceVerifier(): string {
  return generateRandomCodeVerifier();
}

/** The PKCE S256 challenge of a verifier (RFC 7636 §4.2; oauth4webapi). */
export function pkceChallenge(verifier: string): Promise<string> {
  return calculatePKCECodeChallenge(verifier);
}

/** Browser document for the OAuth state cookie. */
function doc(): { cookie: string } {
  const d = (globalThis as { document?: { cookie: string } }).document;
  if (!d) throw new Error('OAuth sign-in needs a browser.');
  return d;
}

/** Stores the code verifier in a cookie keyed by state for 1 hour. */
export function storeOAuthVerifier(state: string, verifier: string): void {
  doc().cookie = serializeCookie(`stack-oauth-outer-${state}`, verifier, {
    maxAge: OAUTH_STATE_COOKIE_MAX_AGE_S,
    path: '/',
    sameSite: 'lax',
  });
}

/** Reads and deletes the verifier cookie of `state` (null, with a console warning, when missing). */
export function takeOAuthVerifier(state: string): string | null {
  const name = `stack-oauth-outer-${state}`;
  const value = readCookie(doc(), name);
  doc().cookie = serializeCookie(name, '', { maxAge: 0, path: '/' });
  if (value === null) {
    console.warn(`No OAuth state cookie for state ${state}; was the flow started in another browser?`);
    return null;
  }
  return value;
}

/** WebAuthn support check, with upstream's message. */
export function assertWebAuthn(): void {
  const g = globalThis as { PublicKeyCredential?: unknown; navigator?: { credentials?: unknown } };
  if (!g.PublicKeyCredential || !g.navigator?.credentials) throw new Error('WebAuthn is not supported in this browser');
}

/**
 * Runs a WebAuthn ceremony; a rejection (cancelled, timed out, excluded authenticator, …) becomes
 * a PASSKEY_WEBAUTHN_ERROR result `{message, code: <DOMException name>}` instead of a throw.
 */
export async function webAuthnCeremony<T>(ceremony: () => Promise<T | null>): Promise<Result<T>> {
  try {
    const credential = await ceremony();
    if (!credential) throw Object.assign(new Error('The browser returned no credential.'), { name: 'UnknownError' });
    return { status: 'ok', data: credential };
  } catch (error) {
    const e = error as { name?: string; message?: string };
    return {
      status: 'error',
      error: new GatehouseKnownError('PASSKEY_WEBAUTHN_ERROR', { message: e.message ?? String(error), code: e.name ?? 'UnknownError' }),
    };
  }
}

/** Replaces the server's placeholder rp id with the page's hostname (asserting it is the sentinel). */
export function fixRpId(options: Record<string, any>, key: 'rpId' | 'rp'): Record<string, any> {
  const host = (globalThis as { location?: { hostname: string } }).location?.hostname ?? 'localhost';
  if (key === 'rpId') {
    if (options.rpId !== PASSKEY_RP_ID_SENTINEL) throw new Error(`Unexpected relying-party id ${String(options.rpId)}`);
    return { ...options, rpId: host };
  }
  if (options.rp?.id !== PASSKEY_RP_ID_SENTINEL) throw new Error(`Unexpected relying-party id ${String(options.rp?.id)}`);
  return { ...options, rp: { ...options.rp, id: host } };
}
