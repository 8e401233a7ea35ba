import * as v from 'valibot';
import { component } from '../operations/output.ts';
import { clientMetadata, type RegisteredBy } from './client-record.ts';
import type { OAuthClientRow } from './queries.ts';

/** Grant types a client may be registered for (RFC 6749 §4, RFC 8628 §3.4). */
export const CLIENT_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;

/** Client authentication methods at the token endpoint (RFC 7591 §2; RFC 7523 for `private_key_jwt`). */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt'] as const;

/** The scopes every provider knows; a project adds its own in `oidc.scopes`. */
export const STANDARD_SCOPES = ['openid', 'offline_access', 'profile', 'email'] as const;

const Url = v.pipe(v.string(), v.maxLength(2000, 'must be at most 2000 characters'), v.url('must be a URL'));

/** A public JWK of a `private_key_jwt` client: kept as given (bounded), checked by the provider. */
const JwksSchema = v.strictObject({
  keys: v.pipe(v.array(v.pipe(v.record(v.string(), v.unknown()))), v.minLength(1), v.maxLength(10, 'must have at most 10 keys')),
});

const fields = {
  client_name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters')),
  redirect_uris: v.pipe(v.array(Url), v.maxLength(50, 'must have at most 50 entries')),
  post_logout_redirect_uris: v.pipe(v.array(Url), v.maxLength(50, 'must have at most 50 entries')),
  grant_types: v.pipe(v.array(v.picklist(CLIENT_GRANT_TYPES)), v.minLength(1, 'must not be empty')),
  token_endpoint_auth_method: v.picklist(CLIENT_AUTH_METHODS),
  scope: v.pipe(
    v.string(),
    v.maxLength(2000, 'must be at most 2000 characters'),
    v.regex(/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, 'must be space-separated scope tokens'),
  ),
  skip_consent: v.boolean(),
  logo_uri: v.nullable(Url),
  jwks_uri: v.nullable(Url),
  jwks: v.nullable(JwksSchema),
};

/** `POST /internal/oauth-clients` body. */
export const CreateOAuthClientSchema = v.strictObject({
  client_name: fields.client_name,
  redirect_uris: v.optional(fields.redirect_uris, []),
  post_logout_redirect_uris: v.optional(fields.post_logout_redirect_uris),
  grant_types: v.optional(fields.grant_types, ['authorization_code', 'refresh_token']),
  token_endpoint_auth_method: v.optional(fields.token_endpoint_auth_method, 'client_secret_basic'),
  scope: v.optional(fields.scope, 'openid profile email offline_access'),
  skip_consent: v.optional(fields.skip_consent, false),
  logo_uri: v.optional(fields.logo_uri, null),
  jwks_uri: v.optional(fields.jwks_uri, null),
  jwks: v.optional(fields.jwks, null),
});

/** `PATCH /internal/oauth-clients/{client_id}` body: any subset of the creation fields. */
export const UpdateOAuthClientSchema = v.strictObject({
  client_name: v.optional(fields.client_name),
  redirect_uris: v.optional(fields.redirect_uris),
  post_logout_redirect_uris: v.optional(fields.post_logout_redirect_uris),
  grant_types: v.optional(fields.grant_types),
  token_endpoint_auth_method: v.optional(fields.token_endpoint_auth_method),
  scope: v.optional(fields.scope),
  skip_consent: v.optional(fields.skip_consent),
  logo_uri: v.optional(fields.logo_uri),
  jwks_uri: v.optional(fields.jwks_uri),
  jwks: v.optional(fields.jwks),
});

const ClientShape = {
  client_id: v.string(),
  client_name: v.string(),
  redirect_uris: v.array(v.string()),
  post_logout_redirect_uris: v.array(v.string()),
  grant_types: v.array(v.string()),
  token_endpoint_auth_method: v.string(),
  scope: v.string(),
  skip_consent: v.boolean(),
  logo_uri: v.nullable(v.string()),
  jwks_uri: v.nullable(v.string()),
  has_jwks: v.boolean(),
  registered_by: v.picklist(['admin', 'dynamic']),
  created_at_millis: v.number(),
};

/** A client as the admin API answers it (never its secret). */
export const OAuthClientOutput = component('OAuthClient', v.strictObject(ClientShape));

/** A just-created client: its secret (for secret-based methods) is in this answer only. */
export const CreatedOAuthClientOutput = component(
  'CreatedOAuthClient',
  v.strictObject({ ...ClientShape, client_secret: v.nullable(v.string()) }),
);

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : []);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A client row as {@link OAuthClientOutput}. */
export function toOAuthClientJson(row: OAuthClientRow): v.InferOutput<typeof OAuthClientOutput> {
  const m = clientMetadata(row);
  return {
    client_id: row.client_id,
    client_name: stringOrNull(m.client_name) ?? '',
    redirect_uris: strings(m.redirect_uris),
    post_logout_redirect_uris: strings(m.post_logout_redirect_uris),
    grant_types: strings(m.grant_types),
    token_endpoint_auth_method: stringOrNull(m.token_endpoint_auth_method) ?? 'client_secret_basic',
    scope: stringOrNull(m.scope) ?? '',
    skip_consent: row.registered_by === 'admin' && m.skip_consent === true,
    logo_uri: stringOrNull(m.logo_uri),
    jwks_uri: stringOrNull(m.jwks_uri),
    has_jwks: typeof m.jwks === 'object' && m.jwks !== null,
    registered_by: row.registered_by as RegisteredBy,
    created_at_millis: Number(row.created_at),
  };
}
