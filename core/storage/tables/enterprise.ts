/**
 * Table types (see core/storage/tables.ts for the conventions): Enterprise: SSO connections, SCIM provisioning and the identity provider's clients and payloads.
 */
import type { Bool } from './columns.ts';

/**
 * A team's enterprise SSO connection (core/sso): SAML 2.0 (`idp_*`, `sp_*` columns) or OpenID
 * Connect (`issuer_url`, `client_id`, `client_secret_sealed`). JSON text: `domains` (string[]),
 * `default_permissions` (string[] or null: the project's member defaults), `attribute_mapping`
 * (`{email?, name?}` attribute names), `idp_certificates` (PEM bodies). Secrets sealed (AES-256-GCM).
 */
export interface SsoConnectionsTable {
  id: string;
  project_id: string;
  team_id: string;
  type: 'saml' | 'oidc';
  display_name: string | null;
  domains: string;
  default_permissions: string | null;
  attribute_mapping: string;
  allow_idp_initiated: Bool;
  idp_initiated_redirect_url: string | null;
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  idp_certificates: string | null;
  idp_metadata_url: string | null;
  sp_certificate: string | null;
  sp_private_key_sealed: string | null;
  issuer_url: string | null;
  client_id: string | null;
  client_secret_sealed: string | null;
  created_at: number;
  updated_at: number;
  /** `trust_idp` or `require_ours` (migration 0023). */
  mfa_policy: string;
  /** JSON `{group: permission ids}` or null (migration 0023). */
  group_permissions: string | null;
  /** Epoch ms of the last fetch of `idp_metadata_url` (migration 0023). */
  metadata_fetched_at: number | null;
}

/** A SAML assertion id already used through a connection, kept until the assertion expires (replay refusal). */
export interface SsoUsedAssertionsTable {
  connection_id: string;
  assertion_id: string;
  expires_at: number;
}

/** A team's SCIM bearer token, stored hashed (core/scim). */
export interface ScimTokensTable {
  id: string;
  project_id: string;
  team_id: string;
  description: string;
  token_hash: string;
  last_four: string;
  created_at: number;
  last_used_at: number | null;
}

/** A user a team's SCIM client provisioned (core/scim). */
export interface ScimUsersTable {
  project_id: string;
  team_id: string;
  user_id: string;
  user_name: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  scim_active: Bool;
  created_by_scim: Bool;
  created_at: number;
  updated_at: number;
}

/** A team's SCIM group, mapped to a team permission by name (core/scim/groups.ts). */
export interface ScimGroupsTable {
  id: string;
  project_id: string;
  team_id: string;
  display_name: string;
  external_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
}

/** An OAuth client of a project's identity provider (core/oauth-provider, issue 31). */
export interface OAuthProviderClientsTable {
  client_id: string;
  project_id: string;
  /** JSON: the RFC 7591 client metadata without the secret, plus `skip_consent`. */
  metadata: string;
  /** The client secret sealed (AES-256-GCM, core/lib/secret-box.ts); null for public and private_key_jwt clients. */
  client_secret_sealed: string | null;
  /** `admin` (the internal API) or `dynamic` (RFC 7591 registration). */
  registered_by: string;
  created_at: number;
  updated_at: number;
}

/** One `oidc-provider` model instance (core/oauth-provider/payloads.ts). */
export interface OAuthProviderPayloadsTable {
  project_id: string;
  /** `Session`, `AccessToken`, `RefreshToken`, `Grant`, `Interaction`, `DeviceCode`, … */
  model: string;
  /** base64url SHA-256 of the model id (opaque tokens are their own id). */
  id_hash: string;
  /** JSON of the payload. */
  payload: string;
  grant_id: string | null;
  user_code_hash: string | null;
  uid: string | null;
  /** The user (`accountId`) the payload belongs to, for revoking a user's grants at sign-out or deletion. */
  account_id: string | null;
  /** Epoch ms, null for no expiry. */
  expires_at: number | null;
  /** Epoch ms when consumed (codes, rotated refresh tokens). */
  consumed_at: number | null;
}
