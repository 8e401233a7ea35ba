import * as v from 'valibot';
import { UuidSchema } from '../lib/schemas.ts';
import { component, MillisOutput, NullableString } from '../operations/output.ts';

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `must be at most ${max} characters`));
const httpUrl = (max = 2048) =>
  v.pipe(v.string(), v.maxLength(max, `must be at most ${max} characters`), v.regex(/^https?:\/\/[^\s]+$/i, 'must be an http(s) URL'));

/** An email domain as listed on a connection: lowercase letters, digits and hyphens in two or more labels. */
const DomainSchema = v.pipe(
  v.string(),
  v.toLowerCase(),
  v.maxLength(253, 'must be at most 253 characters'),
  v.regex(/^(?!-)[a-z0-9-]{1,63}(\.(?!-)[a-z0-9-]{1,63})+$/, 'must be a domain name such as example.com'),
);

const PermissionIdsSchema = v.pipe(v.array(text(256)), v.maxLength(50, 'must list at most 50 permissions'));

const AttributeMappingSchema = v.strictObject({
  email: v.optional(text(256)),
  name: v.optional(text(256)),
  groups: v.optional(text(256)),
});

/** IdP group → team permission ids; at most 100 groups. */
const GroupPermissionsSchema = v.pipe(
  v.record(
    v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters')),
    PermissionIdsSchema,
  ),
  v.check((map) => Object.keys(map).length <= 100, 'must map at most 100 groups'),
);

/** Options every connection has; `domains` only with server or admin access (the routing of addresses is the app's call). */
const commonEntries = {
  display_name: v.optional(v.nullable(text(256))),
  default_permissions: v.optional(v.nullable(PermissionIdsSchema)),
  attribute_mapping: v.optional(AttributeMappingSchema),
  group_permissions: v.optional(v.nullable(GroupPermissionsSchema)),
  mfa_policy: v.optional(v.picklist(['trust_idp', 'require_ours'])),
  allow_idp_initiated: v.optional(v.boolean()),
  idp_initiated_redirect_url: v.optional(v.nullable(httpUrl())),
};
const serverEntries = {
  ...commonEntries,
  domains: v.optional(v.pipe(v.array(DomainSchema), v.maxLength(50, 'must list at most 50 domains'))),
};

/** The three ways to describe a SAML IdP: its metadata document, a URL serving it, or its three facts. */
const samlSourceEntries = {
  idp_metadata_xml: v.optional(text(512 * 1024)),
  idp_metadata_url: v.optional(httpUrl()),
  idp_entity_id: v.optional(text(1024)),
  idp_sso_url: v.optional(httpUrl()),
  idp_certificate: v.optional(text(16 * 1024)),
};
const oidcEntries = {
  issuer_url: httpUrl(),
  client_id: text(512),
  client_secret: text(2048),
};

/** Body of `POST /teams/{team_id}/sso-connections` (server, admin). */
export const ServerConnectionCreateSchema = v.variant('type', [
  v.strictObject({ type: v.literal('saml'), ...serverEntries, ...samlSourceEntries }),
  v.strictObject({ type: v.literal('oidc'), ...serverEntries, ...oidcEntries }),
]);
/** The same for a team admin with `$manage_sso` (client): no `domains`. */
export const ClientConnectionCreateSchema = v.variant('type', [
  v.strictObject({ type: v.literal('saml'), ...commonEntries, ...samlSourceEntries }),
  v.strictObject({ type: v.literal('oidc'), ...commonEntries, ...oidcEntries }),
]);
export type ConnectionCreate = v.InferOutput<typeof ServerConnectionCreateSchema>;

/** Body of `PATCH /teams/{team_id}/sso-connections/{id}`: any option, and a new IdP source of the connection's type. */
export const ServerConnectionUpdateSchema = v.strictObject({
  ...serverEntries,
  ...samlSourceEntries,
  issuer_url: v.optional(oidcEntries.issuer_url),
  client_id: v.optional(oidcEntries.client_id),
  client_secret: v.optional(oidcEntries.client_secret),
});
export const ClientConnectionUpdateSchema = v.strictObject({
  ...commonEntries,
  ...samlSourceEntries,
  issuer_url: v.optional(oidcEntries.issuer_url),
  client_id: v.optional(oidcEntries.client_id),
  client_secret: v.optional(oidcEntries.client_secret),
});
export type ConnectionUpdate = v.InferOutput<typeof ServerConnectionUpdateSchema>;

export const TeamConnectionsParamsSchema = v.strictObject({ team_id: UuidSchema });
export const ConnectionParamsSchema = v.strictObject({ team_id: UuidSchema, connection_id: UuidSchema });

/**
 * A connection on the wire. SAML connections answer `sp_entity_id`, `acs_url` and
 * `sp_metadata_url` (what the IdP needs) and the IdP facts in use; OpenID connections answer
 * `redirect_uri`, `issuer_url` and `client_id`. Secrets are never answered.
 */
export const SsoConnectionOutput = component(
  'SsoConnection',
  v.strictObject({
    id: v.string(),
    team_id: v.string(),
    type: v.picklist(['saml', 'oidc']),
    display_name: NullableString,
    domains: v.array(v.string()),
    default_permissions: v.nullable(v.array(v.string())),
    attribute_mapping: v.strictObject({ email: v.optional(v.string()), name: v.optional(v.string()), groups: v.optional(v.string()) }),
    group_permissions: v.nullable(v.record(v.string(), v.array(v.string()))),
    mfa_policy: v.picklist(['trust_idp', 'require_ours']),
    allow_idp_initiated: v.boolean(),
    idp_initiated_redirect_url: NullableString,
    sp_entity_id: NullableString,
    acs_url: NullableString,
    sp_metadata_url: NullableString,
    idp_entity_id: NullableString,
    idp_sso_url: NullableString,
    idp_metadata_url: NullableString,
    idp_metadata_fetched_at_millis: v.nullable(v.number()),
    redirect_uri: NullableString,
    issuer_url: NullableString,
    client_id: NullableString,
    created_at_millis: MillisOutput,
  }),
);
