import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { KnownError } from '../errors/index.ts';
import type { Runtime } from '../runtime.ts';
import { openSecret, serviceProviderUrls, type SsoConnection } from './connection.ts';
import { parseStrictXml } from './idp-metadata.ts';

/** Clock skew tolerated on `NotBefore` / `NotOnOrAfter` (both the conditions and the subject confirmation), in ms. */
export const SAML_CLOCK_SKEW_MS = 60_000;

/** Largest `SAMLResponse` accepted (base64 characters); real responses are a few KB, encrypted ones ~10 KB. */
export const MAX_SAML_RESPONSE_CHARS = 512 * 1024;

const refused = (reason: string) => new KnownError('SSO_RESPONSE_INVALID', { reason });

/**
 * node-saml's request cache, bound to one request of ours: `saveAsync` reports the id of the
 * AuthnRequest it just built; `getAsync` asks `take` once for the first id it is given (a second,
 * different id in the same response is refused) — the flow store is single use and expires after
 * 10 minutes, which is the `InResponseTo` check against a stored request.
 */
function requestCache(hooks: { saved?: (id: string) => void; take?: (id: string) => Promise<boolean> }): CacheProvider {
  let asked: { id: string; ok: Promise<boolean> } | null = null;
  return {
    async saveAsync(key, value) {
      hooks.saved?.(key);
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      if (!hooks.take) return null;
      asked ??= { id: key, ok: hooks.take(key) };
      // node-saml reads the value as the request's creation time; the flow store enforces the expiry.
      return asked.id === key && (await asked.ok) ? new Date().toISOString() : null;
    },
    async removeAsync() {
      return null;
    },
  };
}

/**
 * A node-saml SP for a connection: assertions must be signed (also inside an encrypted assertion;
 * a signed response alone is not enough), by one of the IdP's certificates, issued by its entity
 * id, for our entity id as audience, within {@link SAML_CLOCK_SKEW_MS}; `InResponseTo` must name a
 * request of ours unless the connection allows IdP-initiated sign-in; encrypted assertions are
 * decrypted with the connection's SP key. Requests are signed (RSA-SHA256) with that key.
 */
function serviceProvider(runtime: Runtime, connection: SsoConnection, cache: CacheProvider): SAML {
  const urls = serviceProviderUrls(runtime, connection.id);
  const privateKey = openSecret(runtime, connection, 'sp_private_key');
  if (!privateKey || !connection.idpSsoUrl || !connection.idpEntityId || connection.idpCertificates.length === 0)
    throw new KnownError('SSO_CONNECTION_NOT_FOUND');
  return new SAML({
    callbackUrl: urls.acsUrl,
    entryPoint: connection.idpSsoUrl,
    issuer: urls.spEntityId,
    audience: urls.spEntityId,
    idpIssuer: connection.idpEntityId,
    idpCert: connection.idpCertificates,
    privateKey,
    decryptionPvk: privateKey,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    authnRequestBinding: 'HTTP-Redirect',
    validateInResponseTo: connection.allowIdpInitiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: 10 * 60 * 1000,
    cacheProvider: cache,
  });
}

/**
 * Builds a signed AuthnRequest for the HTTP-Redirect binding (SAML Bindings §3.4).
 *
 * @returns the IdP URL to send the browser to, and the request's id (the response's `InResponseTo`)
 */
export async function startSamlRequest(runtime: Runtime, connection: SsoConnection): Promise<{ location: string; requestId: string }> {
  let requestId = '';
  const saml = serviceProvider(
    runtime,
    connection,
    requestCache({
      saved: (id) => {
        requestId = id;
      },
    }),
  );
  const location = await saml.getAuthorizeUrlAsync('', undefined, {});
  if (!requestId) throw new Error('node-saml did not report the AuthnRequest id');
  return { location, requestId };
}

/** The SP metadata (SAML V2.0 Metadata §2.4.4): entity id, ACS (HTTP-POST), our certificate for signing and encryption. */
export function serviceProviderMetadata(runtime: Runtime, connection: SsoConnection): string {
  const saml = serviceProvider(runtime, connection, requestCache({}));
  return saml.generateServiceProviderMetadata(connection.spCertificate, connection.spCertificate);
}

/** A validated SAML sign-in: the IdP's profile and what replay refusal needs. */
export interface ValidatedAssertion {
  profile: Profile;
  /** The assertion's `ID`. */
  assertionId: string;
  /** Until when the assertion could be presented (its latest NotOnOrAfter plus the skew), epoch ms. */
  usableUntil: number;
}

/** A short, stable reason for a refused response, from node-saml's message (logged and sent as `details.reason`). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/signature/i.test(message)) return 'signature';
  if (/audience/i.test(message)) return 'audience';
  // A subject confirmation is only "valid" inside its NotBefore / NotOnOrAfter window.
  if (/expired|too old|No valid subject confirmation/i.test(message)) return 'expired';
  if (/not yet valid/i.test(message)) return 'not yet valid';
  if (/InResponseTo is missing/i.test(message)) return 'unsolicited';
  if (/InResponseTo/i.test(message)) return 'unknown request';
  if (/issuer/i.test(message)) return 'issuer';
  if (/status|Responder|Requester|AuthnFailed/i.test(message)) return 'the identity provider reported an error';
  return 'malformed';
}

function latestNotOnOrAfter(doc: ReturnType<typeof parseStrictXml>): number | null {
  let latest: number | null = null;
  for (const name of ['Conditions', 'SubjectConfirmationData']) {
    const list = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', name);
    for (let i = 0; i < list.length; i++) {
      const at = Date.parse(list.item(i)!.getAttribute('NotOnOrAfter') ?? '');
      if (Number.isFinite(at)) latest = Math.max(latest ?? at, at);
    }
  }
  return latest;
}

/**
 * Validates a `SAMLResponse` posted to a connection's ACS: size, no DOCTYPE, then node-saml's
 * checks (see serviceProvider), then ours on the signed assertion: every bearer
 * `SubjectConfirmationData` names our ACS as `Recipient` (SAML Profiles §4.1.4.2), the response's
 * `Destination` (when present) is our ACS, and the assertion has an `ID`. `take(requestId)` is
 * asked (once) for the request the response answers; it returns false for an unknown, used or
 * expired request.
 *
 * @throws KnownError SSO_RESPONSE_INVALID with `reason`: `malformed`, `signature`, `audience`,
 * `expired`, `not yet valid`, `unsolicited`, `unknown request`, `issuer`, `recipient`, `destination`
 */
export async function validateSamlResponse(
  runtime: Runtime,
  connection: SsoConnection,
  samlResponse: string,
  take: (requestId: string) => Promise<boolean>,
): Promise<ValidatedAssertion> {
  if (samlResponse.length > MAX_SAML_RESPONSE_CHARS || !/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) throw refused('malformed');
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const responseDoc = parseStrictXml(xml, MAX_SAML_RESPONSE_CHARS, () => refused('malformed'));
  const urls = serviceProviderUrls(runtime, connection.id);
  const destination = responseDoc.documentElement?.getAttribute('Destination');
  if (destination && destination !== urls.acsUrl) throw refused('destination');

  const saml = serviceProvider(runtime, connection, requestCache({ take }));
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    runtime.log.info({ connection_id: connection.id, err: String(error).slice(0, 300) }, 'SAML response refused');
    throw refused(reasonOf(error));
  }
  if (!profile) throw refused('malformed');
  const assertionDoc = parseStrictXml(profile.getAssertionXml?.() ?? '', MAX_SAML_RESPONSE_CHARS, () => refused('malformed'));
  const assertion = assertionDoc.documentElement!;
  const assertionId = assertion.getAttribute('ID') ?? '';
  if (!assertionId || assertionId.length > 256) throw refused('malformed');
  const confirmations = assertionDoc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'SubjectConfirmationData');
  if (confirmations.length === 0) throw refused('recipient');
  for (let i = 0; i < confirmations.length; i++) {
    if (confirmations.item(i)!.getAttribute('Recipient') !== urls.acsUrl) throw refused('recipient');
  }
  const notOnOrAfter = latestNotOnOrAfter(assertionDoc);
  return { profile, assertionId, usableUntil: (notOnOrAfter ?? Date.now() + 3_600_000) + SAML_CLOCK_SKEW_MS };
}
