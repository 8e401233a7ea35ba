import { isRedirectUrlTrusted } from '../config/domains.ts';
import { KnownError } from '../errors/index.ts';
import type { Project } from '../projects/index.ts';
import type { Runtime } from '../runtime.ts';

/**
 * The relying-party id the server puts in its options. Upstream has no single authentication
 * domain, so the browser replaces this sentinel with its own hostname (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts), and the
 * server derives the expected RP id from the origin the browser signed.
 */
export const RP_ID_SENTINEL = 'THIS_VALUE_WILL_BE_REPLACED.example.com';

/** WebAuthn ceremony timeout sent to the browser, ms (upstream: 60 s). */
export const CEREMONY_TIMEOUT_MS = 60_000;

/** Challenge codes live for the ceremony timeout plus 5 s (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx). */
export const CHALLENGE_TTL_MS = CEREMONY_TIMEOUT_MS + 5_000;

/** What the signed client data must match, for `@simplewebauthn/server`'s verify functions. */
export interface ExpectedRelyingParty {
  expectedOrigin: string;
  expectedRPID: string;
  /** The challenge the browser signed (base64url), as read from the client data. */
  challenge: string;
}

/**
 * Reads the origin from a response's `clientDataJSON` and accepts it when the project trusts it:
 * one of its trusted domains (exact or wildcard, the rules of redirect URLs, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts), localhost
 * when `allow_localhost`, or this server's own origin (its hosted pages, e.g. the internal
 * project's). The RP id is then the origin's hostname (WebAuthn L3 §5.1.3/§5.1.4: an RP id must
 * be a registrable suffix of the origin; the browser sets it to the hostname).
 *
 * @throws KnownError `failure` (PASSKEY_REGISTRATION_FAILED or PASSKEY_AUTHENTICATION_FAILED) with
 *   upstream's message "Passkey registration/authentication failed because the origin is not
 *   allowed", or "…the client data is malformed" when `clientDataJSON` cannot be decoded.
 * @see upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/passkey/{register,sign-in}/verification-code-handler.tsx
 */
export function expectedRelyingParty(
  runtime: Runtime,
  project: Project,
  clientDataJSON: string,
  failure: 'PASSKEY_REGISTRATION_FAILED' | 'PASSKEY_AUTHENTICATION_FAILED',
): ExpectedRelyingParty {
  const what = failure === 'PASSKEY_REGISTRATION_FAILED' ? 'registration' : 'authentication';
  let origin: string;
  let challenge: string;
  try {
    // As @simplewebauthn/server's decodeClientDataJSON: base64url → UTF-8 → JSON (WebAuthn L3 §5.8.1).
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { origin?: unknown; challenge?: unknown };
    if (typeof data.origin !== 'string' || typeof data.challenge !== 'string') throw new Error('missing fields');
    origin = data.origin;
    challenge = data.challenge;
  } catch {
    throw new KnownError(failure, { message: `Passkey ${what} failed because the client data is malformed` });
  }
  const config = project.config;
  const trusted = isRedirectUrlTrusted(origin, {
    allowLocalhost: config.allowLocalhost,
    domains: config.domains,
    extraOrigins: [new URL(runtime.baseUrl).origin],
  });
  if (!trusted) throw new KnownError(failure, { message: `Passkey ${what} failed because the origin is not allowed` });
  return { expectedOrigin: origin, expectedRPID: new URL(origin).hostname, challenge };
}
