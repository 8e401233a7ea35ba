import { API_PREFIX } from '../operations/api-path.ts';
import { MAX_OPERATIONS, MAX_PAGE_SIZE, SCHEMA } from './protocol.ts';

/** `GET /ServiceProviderConfig` (RFC 7643 §5): what this SCIM service supports. */
export function serviceProviderConfig(baseUrl: string): Record<string, unknown> {
  return {
    schemas: [SCHEMA.serviceProviderConfig],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: `A team's SCIM token (POST ${API_PREFIX}/teams/{team_id}/scim-tokens) in Authorization: Bearer. At most ${MAX_OPERATIONS} PATCH operations per request.`,
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

const attr = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** The two core schemas as Gatehouse serves them (RFC 7643 §7, the attributes it keeps). */
export function schemas(baseUrl: string): Array<Record<string, unknown>> {
  return [
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.user,
      name: 'User',
      description: 'User Account',
      attributes: [
        attr('userName', 'string', { required: true, uniqueness: 'server' }),
        attr('externalId', 'string', { caseExact: true }),
        {
          ...attr('name', 'complex'),
          subAttributes: [attr('givenName', 'string'), attr('familyName', 'string'), attr('formatted', 'string')],
        },
        attr('displayName', 'string'),
        {
          ...attr('emails', 'complex', { multiValued: true }),
          subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')],
        },
        attr('active', 'boolean'),
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCHEMA.user}` },
    },
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.group,
      name: 'Group',
      description: 'Group: its members get the team permission named like the group (docs/sso.md "SCIM")',
      attributes: [
        attr('displayName', 'string', { required: true, uniqueness: 'server' }),
        attr('externalId', 'string', { caseExact: true }),
        {
          ...attr('members', 'complex', { multiValued: true }),
          subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('$ref', 'reference'), attr('type', 'string')],
        },
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCHEMA.group}` },
    },
  ];
}

/** `GET /ResourceTypes` (RFC 7643 §6): User and Group. */
export function resourceTypes(baseUrl: string): Array<Record<string, unknown>> {
  return [
    { name: 'User', endpoint: '/Users', schema: SCHEMA.user, description: 'User Account' },
    { name: 'Group', endpoint: '/Groups', schema: SCHEMA.group, description: 'Group' },
  ].map((t) => ({
    schemas: [SCHEMA.resourceType],
    id: t.name,
    ...t,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${t.name}` },
  }));
}
