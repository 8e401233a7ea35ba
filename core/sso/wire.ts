import type * as v from 'valibot';
import type { Runtime } from '../runtime.ts';
import { serviceProviderUrls, type SsoConnection } from './connection.ts';
import type { SsoConnectionOutput } from './schemas.ts';

/** A connection as answered (no secrets; the SP URLs the IdP needs). */
export function toWireConnection(runtime: Runtime, c: SsoConnection): v.InferOutput<typeof SsoConnectionOutput> {
  const urls = serviceProviderUrls(runtime, c.id);
  const saml = c.type === 'saml';
  return {
    id: c.id,
    team_id: c.teamId,
    type: c.type,
    display_name: c.displayName,
    domains: c.domains,
    default_permissions: c.defaultPermissions,
    attribute_mapping: c.attributeMapping,
    group_permissions: c.groupPermissions,
    mfa_policy: c.mfaPolicy,
    allow_idp_initiated: c.allowIdpInitiated,
    idp_initiated_redirect_url: c.idpInitiatedRedirectUrl,
    sp_entity_id: saml ? urls.spEntityId : null,
    acs_url: saml ? urls.acsUrl : null,
    sp_metadata_url: saml ? urls.spMetadataUrl : null,
    idp_entity_id: c.idpEntityId,
    idp_sso_url: c.idpSsoUrl,
    idp_metadata_url: c.idpMetadataUrl,
    idp_metadata_fetched_at_millis: c.metadataFetchedAt,
    redirect_uri: saml ? null : urls.redirectUri,
    issuer_url: c.issuerUrl,
    client_id: c.clientId,
    created_at_millis: c.createdAt,
  };
}
