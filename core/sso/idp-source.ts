import { KnownError } from '../errors/index.ts';
import type { Runtime } from '../runtime.ts';
import { fetchIdpMetadata, normalizeCertificate, parseIdpMetadata, type IdpDetails } from './idp-metadata.ts';

/** The SAML IdP fields a create or update may carry. */
export interface IdpSourceInput {
  idp_metadata_xml?: string | undefined;
  idp_metadata_url?: string | undefined;
  idp_entity_id?: string | undefined;
  idp_sso_url?: string | undefined;
  idp_certificate?: string | undefined;
}

/** True when `input` names any IdP source field. */
export function hasIdpSource(input: IdpSourceInput): boolean {
  return [input.idp_metadata_xml, input.idp_metadata_url, input.idp_entity_id, input.idp_sso_url, input.idp_certificate].some(
    (x) => x !== undefined,
  );
}

/**
 * Reads a SAML IdP from exactly one source: `idp_metadata_xml`, `idp_metadata_url` (fetched now
 * through the outbound guard) or all of `idp_entity_id`, `idp_sso_url` and `idp_certificate`.
 * Network I/O for a URL: call outside transactions.
 *
 * @throws KnownError SCHEMA_ERROR when not exactly one source is given; SSO_IDP_METADATA_INVALID;
 * OAUTH_PROVIDER_URL_NOT_ALLOWED
 */
export async function readIdpSource(runtime: Runtime, input: IdpSourceInput): Promise<IdpDetails & { metadataUrl: string | null }> {
  const manual = [input.idp_entity_id, input.idp_sso_url, input.idp_certificate];
  const sources = [input.idp_metadata_xml !== undefined, input.idp_metadata_url !== undefined, manual.some((x) => x !== undefined)];
  if (sources.filter(Boolean).length !== 1)
    throw new KnownError('SCHEMA_ERROR', {
      message:
        'A SAML connection needs exactly one of idp_metadata_xml, idp_metadata_url, or idp_entity_id + idp_sso_url + idp_certificate.',
    });
  if (input.idp_metadata_xml !== undefined) return { ...parseIdpMetadata(input.idp_metadata_xml), metadataUrl: null };
  if (input.idp_metadata_url !== undefined)
    return { ...(await fetchIdpMetadata(runtime, input.idp_metadata_url)), metadataUrl: input.idp_metadata_url };
  if (manual.some((x) => x === undefined || x === ''))
    throw new KnownError('SCHEMA_ERROR', { message: 'idp_entity_id, idp_sso_url and idp_certificate go together.' });
  return {
    entityId: input.idp_entity_id!,
    ssoUrl: input.idp_sso_url!,
    certificates: [normalizeCertificate(input.idp_certificate!)],
    metadataUrl: null,
  };
}
