import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { KnownError } from '../errors/index.ts';
import type { Runtime } from '../runtime.ts';
import { isPrivateAddressError } from '../lib/outbound-fetch.ts';
import { providerOutboundFetch } from '../auth-oauth/index.ts';
import { xmlShapeProblem } from './xml-shape.ts';

/** Largest IdP metadata document accepted, in characters (Entra ID's federation metadata is ~20 KB; aggregates are refused). */
export const MAX_METADATA_CHARS = 512 * 1024;

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What Gatehouse needs of a SAML IdP: its entity id, its single sign-on URL (HTTP-Redirect binding) and signing certificates. */
export interface IdpDetails {
  entityId: string;
  ssoUrl: string;
  /** base64 DER, no PEM armour. */
  certificates: string[];
}

const invalid = (reason: string) => new KnownError('SSO_IDP_METADATA_INVALID', { reason });

/**
 * Parses XML that comes from a tenant or an IdP into a DOM, refusing what a SAML document never
 * needs: a DOCTYPE (entity expansion), more than `maxChars`, unbalanced or very deep tags (checked
 * in linear time first, xml-shape.ts), or any parser warning or error.
 *
 * @throws KnownError `onError` with the reason
 */
export function parseStrictXml(xml: string, maxChars: number, onError: (reason: string) => KnownError) {
  if (xml.length > maxChars) throw onError(`the document is larger than ${maxChars} characters`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw onError('a DOCTYPE is not allowed');
  const shape = xmlShapeProblem(xml);
  if (shape !== null) throw onError(`malformed XML (${shape})`);
  let problem: string | null = null;
  const record = (message: string) => {
    problem ??= message.split('\n')[0]!.slice(0, 200);
  };
  const doc = new DOMParser({ errorHandler: { warning: record, error: record, fatalError: record } }).parseFromString(xml, 'text/xml');
  if (problem !== null || !doc?.documentElement) throw onError(`malformed XML (${problem ?? 'no root element'})`);
  return doc;
}

/**
 * Normalises one certificate given as PEM or bare base64 to base64 DER, checking that it parses
 * as X.509.
 *
 * @throws KnownError SSO_IDP_METADATA_INVALID
 */
export function normalizeCertificate(text: string): string {
  const body = text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();
  if (body.length === 0 || body.length > 16_384 || !/^[A-Za-z0-9+/]+=*$/.test(body)) throw invalid('the certificate is not PEM or base64');
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    throw invalid('the certificate is not a valid X.509 certificate');
  }
  return body;
}

function children(parent: Element, ns: string, name: string): Element[] {
  const list = parent.getElementsByTagNameNS(ns, name);
  const out: Element[] = [];
  for (let i = 0; i < list.length; i++) out.push(list.item(i)!);
  return out;
}

/**
 * Reads an IdP's SAML 2.0 metadata (SAML V2.0 Metadata §2.4.3 IDPSSODescriptor): the
 * `EntityDescriptor`'s `entityID`, the HTTP-Redirect `SingleSignOnService` location, and the
 * X.509 certificates of `KeyDescriptor`s for signing (or without `use`).
 *
 * @throws KnownError SSO_IDP_METADATA_INVALID naming what is wrong or missing
 */
export function parseIdpMetadata(xml: string): IdpDetails {
  const doc = parseStrictXml(xml, MAX_METADATA_CHARS, invalid);
  const root = doc.documentElement!;
  const entity =
    root.localName === 'EntityDescriptor' && root.namespaceURI === MD
      ? root
      : root.localName === 'EntitiesDescriptor' && root.namespaceURI === MD
        ? children(root, MD, 'EntityDescriptor').find((e) => children(e, MD, 'IDPSSODescriptor').length > 0)
        : undefined;
  if (!entity) throw invalid('no SAML 2.0 EntityDescriptor with an IDPSSODescriptor');
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId || entityId.length > 1024) throw invalid('the entityID is missing');
  const idp = children(entity, MD, 'IDPSSODescriptor')[0];
  if (!idp) throw invalid('no IDPSSODescriptor');
  const sso = children(idp, MD, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === REDIRECT_BINDING);
  const ssoUrl = sso?.getAttribute('Location') ?? '';
  if (!/^https?:\/\//i.test(ssoUrl) || ssoUrl.length > 2048) throw invalid('no SingleSignOnService with the HTTP-Redirect binding');
  const certificates = children(idp, MD, 'KeyDescriptor')
    .filter((k) => (k.getAttribute('use') || 'signing') === 'signing')
    .flatMap((k) => children(k, DSIG, 'X509Certificate'))
    .map((c) => normalizeCertificate(c.textContent ?? ''));
  if (certificates.length === 0) throw invalid('no signing certificate');
  return { entityId, ssoUrl, certificates: [...new Set(certificates)].slice(0, 10) };
}

/**
 * Fetches an IdP's metadata from `url` through the outbound guard (in production mode loopback,
 * link-local and private addresses are refused unless listed in GATEHOUSE_OUTBOUND_PRIVATE_HOSTS),
 * 10 s at most, then parses it. Network I/O: never call inside a transaction.
 *
 * @throws KnownError OAUTH_PROVIDER_URL_NOT_ALLOWED when the guard refuses the address;
 * SSO_IDP_METADATA_INVALID when the document cannot be fetched or used
 */
export async function fetchIdpMetadata(runtime: Runtime, url: string): Promise<IdpDetails> {
  let text: string;
  try {
    const response = await providerOutboundFetch(runtime)(url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      signal: AbortSignal.timeout(10_000),
      redirect: 'error',
    });
    if (!response.ok) throw invalid(`the metadata URL answered ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_METADATA_CHARS) throw invalid('the metadata document is too large');
    text = await response.text();
  } catch (error) {
    if (error instanceof KnownError) throw error;
    if (isPrivateAddressError(error)) throw new KnownError('OAUTH_PROVIDER_URL_NOT_ALLOWED');
    runtime.log.warn({ url, err: String(error) }, 'SAML metadata fetch failed');
    throw invalid('the metadata URL could not be fetched');
  }
  return parseIdpMetadata(text);
}
