import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { Selectable } from 'kysely';
import type { Runtime } from '../runtime.ts';
import type { SsoConnectionsTable } from '../storage/tables.ts';
import { open, seal } from '../lib/secret-box.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/** Which IdP attributes carry the user's email, name and groups (attribute names; OIDC: claim names). */
export interface AttributeMapping {
  email?: string;
  name?: string;
  groups?: string;
}

/** Whether a sign-in through the connection also asks a user with TOTP for a code of ours. */
export type MfaPolicy = 'trust_idp' | 'require_ours';

/** IdP group names (or values) → the team permission ids a member in that group holds. */
export type GroupPermissions = Record<string, string[]>;

/** A team's SSO connection as the domain sees it (JSON columns parsed, secrets still sealed). */
export interface SsoConnection {
  id: string;
  projectId: string;
  teamId: string;
  type: 'saml' | 'oidc';
  displayName: string | null;
  /** Email domains (lowercase) whose addresses sign in through this connection (home-realm discovery). */
  domains: string[];
  /** Team permissions a just-in-time member gets; null: the project's `team_member_default_permissions`. */
  defaultPermissions: string[] | null;
  attributeMapping: AttributeMapping;
  /** SAML: accept responses the IdP sends without a request of ours (then bounce to `idpInitiatedRedirectUrl`). */
  allowIdpInitiated: boolean;
  idpInitiatedRedirectUrl: string | null;
  idpEntityId: string | null;
  idpSsoUrl: string | null;
  /** The IdP's signing certificates (base64 DER, no PEM armour). */
  idpCertificates: string[];
  idpMetadataUrl: string | null;
  /** The SP's own certificate (PEM): signs our requests, encrypts assertions to us. */
  spCertificate: string | null;
  spPrivateKeySealed: string | null;
  issuerUrl: string | null;
  clientId: string | null;
  clientSecretSealed: string | null;
  mfaPolicy: MfaPolicy;
  /** Null: groups are not mapped (team permissions are left as they are at sign-in). */
  groupPermissions: GroupPermissions | null;
  /** When `idpMetadataUrl` was last fetched (epoch ms), null when never or not fetched from a URL. */
  metadataFetchedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

const parseList = (text: string | null): string[] | null => (text === null ? null : (JSON.parse(text) as string[]));

/** Maps a stored row to the domain shape. */
export function fromRow(row: Selectable<SsoConnectionsTable>): SsoConnection {
  return {
    id: row.id,
    projectId: row.project_id,
    teamId: row.team_id,
    type: row.type,
    displayName: row.display_name,
    domains: parseList(row.domains) ?? [],
    defaultPermissions: parseList(row.default_permissions),
    attributeMapping: JSON.parse(row.attribute_mapping) as AttributeMapping,
    allowIdpInitiated: row.allow_idp_initiated,
    idpInitiatedRedirectUrl: row.idp_initiated_redirect_url,
    idpEntityId: row.idp_entity_id,
    idpSsoUrl: row.idp_sso_url,
    idpCertificates: parseList(row.idp_certificates) ?? [],
    idpMetadataUrl: row.idp_metadata_url,
    spCertificate: row.sp_certificate,
    spPrivateKeySealed: row.sp_private_key_sealed,
    issuerUrl: row.issuer_url,
    clientId: row.client_id,
    clientSecretSealed: row.client_secret_sealed,
    mfaPolicy: row.mfa_policy === 'require_ours' ? 'require_ours' : 'trust_idp',
    groupPermissions: row.group_permissions === null ? null : (JSON.parse(row.group_permissions) as GroupPermissions),
    metadataFetchedAt: row.metadata_fetched_at === null ? null : Number(row.metadata_fetched_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Maps the domain shape to a row. */
export function toRow(c: SsoConnection): SsoConnectionsTable {
  return {
    id: c.id,
    project_id: c.projectId,
    team_id: c.teamId,
    type: c.type,
    display_name: c.displayName,
    domains: JSON.stringify(c.domains),
    default_permissions: c.defaultPermissions === null ? null : JSON.stringify(c.defaultPermissions),
    attribute_mapping: JSON.stringify(c.attributeMapping),
    allow_idp_initiated: c.allowIdpInitiated,
    idp_initiated_redirect_url: c.idpInitiatedRedirectUrl,
    idp_entity_id: c.idpEntityId,
    idp_sso_url: c.idpSsoUrl,
    idp_certificates: c.type === 'saml' ? JSON.stringify(c.idpCertificates) : null,
    idp_metadata_url: c.idpMetadataUrl,
    sp_certificate: c.spCertificate,
    sp_private_key_sealed: c.spPrivateKeySealed,
    issuer_url: c.issuerUrl,
    client_id: c.clientId,
    client_secret_sealed: c.clientSecretSealed,
    mfa_policy: c.mfaPolicy,
    group_permissions: c.groupPermissions === null ? null : JSON.stringify(c.groupPermissions),
    metadata_fetched_at: c.metadataFetchedAt,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

/** The URLs the IdP is given for a connection (all under the server's base URL). */
export interface ServiceProviderUrls {
  /** SAML: the SP entity id, which is also where the SP metadata is served. */
  spEntityId: string;
  spMetadataUrl: string;
  /** SAML: the Assertion Consumer Service (HTTP-POST binding). */
  acsUrl: string;
  /** OpenID: the redirect URI to register at the provider. */
  redirectUri: string;
}

/** `<base>/api/v1/auth/sso/{saml|oidc}/<id>/…` for a connection. */
export function serviceProviderUrls(runtime: Runtime, connectionId: string): ServiceProviderUrls {
  const base = `${runtime.baseUrl}${API_PREFIX}/auth/sso`;
  const id = encodeURIComponent(connectionId);
  return {
    spEntityId: `${base}/saml/${id}/metadata`,
    spMetadataUrl: `${base}/saml/${id}/metadata`,
    acsUrl: `${base}/saml/${id}/acs`,
    redirectUri: `${base}/oidc/${id}/callback`,
  };
}

/** The provider id an SSO connection's accounts are linked under (`sso:<connection id>`, never a configured OAuth provider id). */
export function ssoProviderId(connectionId: string): string {
  return `sso:${connectionId}`;
}

const keyFor = (runtime: Runtime, projectId: string) => runtime.deriveKey(`sso/connections/${projectId}`);
const aad = (connectionId: string, field: string) => `${connectionId}\n${field}`;

/** Seals a connection secret (AES-256-GCM under a key derived from the server secret per project; the connection id and field as associated data). */
export function sealSecret(runtime: Runtime, projectId: string, connectionId: string, field: string, value: string): string {
  return seal(keyFor(runtime, projectId), value, aad(connectionId, field));
}

/** Opens a sealed connection secret, or null when it no longer opens (another server secret). */
export function openSecret(runtime: Runtime, c: SsoConnection, field: 'client_secret' | 'sp_private_key'): string | null {
  const sealed = field === 'client_secret' ? c.clientSecretSealed : c.spPrivateKeySealed;
  return sealed === null ? null : open(keyFor(runtime, c.projectId), sealed, aad(c.id, field));
}

const SP_KEY_ALGORITHM = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
} as const;

/**
 * A fresh SP key pair for a SAML connection: RSA 2048 and a self-signed certificate valid 10
 * years (IdPs pin the certificate they import from the SP metadata; its validity dates are not
 * checked by SAML signature processing).
 *
 * @returns the certificate and the PKCS#8 private key, both PEM
 */
export async function generateServiceProviderKeys(commonName: string): Promise<{ certificate: string; privateKey: string }> {
  x509.cryptoProvider.set(webcrypto as Crypto);
  const keys = await webcrypto.subtle.generateKey(SP_KEY_ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: `CN=${commonName.replace(/[,=+<>#;"\\]/g, ' ').slice(0, 60)}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 10 * 365 * 86_400_000),
    signingAlgorithm: SP_KEY_ALGORITHM,
    keys: keys as CryptoKeyPair,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', (keys as CryptoKeyPair).privateKey)).toString('base64');
  const privateKey = `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { certificate: certificate.toString('pem'), privateKey };
}
