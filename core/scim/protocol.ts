/**
 * SCIM 2.0 protocol constants and its error (RFC 7644 §3.12): the schema URNs, the media type,
 * and {@link ScimError}, which the SCIM endpoints answer as
 * `{schemas: [ERROR], status: "<code>", scimType?, detail}`.
 */
export const SCIM_MEDIA_TYPE = 'application/scim+json';

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The success statuses of SCIM answers (RFC 7644 §3.3 201 Created, §3.6 204 No Content). */
export const SCIM_STATUS = { ok: 200, created: 201, noContent: 204 } as const;

/** RFC 7644 §3.12 Table 9 `scimType` values Gatehouse answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'uniqueness'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'invalidValue'
  | 'mutability'
  | 'noTarget'
  | 'tooMany';

/** A SCIM protocol error: an HTTP status, an optional `scimType`, and a human-readable detail. */
export class ScimError extends Error {
  readonly status: number;
  readonly scimType: ScimType | undefined;
  constructor(status: number, detail: string, scimType?: ScimType) {
    super(detail);
    this.status = status;
    this.scimType = scimType;
  }
}

/** The RFC 7644 §3.12 error body of `error`. */
export function scimErrorBody(error: ScimError): Record<string, unknown> {
  return {
    schemas: [SCHEMA.error],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.message,
  };
}

/** Most resources one list answer holds (`count` is capped here; RFC 7644 §3.4.2.4). */
export const MAX_PAGE_SIZE = 200;
/** Longest accepted string attribute (userName, displayName, names, externalId, emails). */
export const MAX_STRING = 256;
/** Most PATCH operations in one request, and most members named in one group request. */
export const MAX_OPERATIONS = 100;
export const MAX_MEMBERS = 1000;

/** `value` as a bounded string, or a 400 invalidValue naming `attribute`. */
export function boundedString(value: unknown, attribute: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_STRING) {
    throw new ScimError(400, `${attribute} must be a non-empty string of at most ${MAX_STRING} characters.`, 'invalidValue');
  }
  return value;
}

/** `value` as an optional bounded string (null and absent give null). */
export function optionalString(value: unknown, attribute: string): string | null {
  if (value === undefined || value === null) return null;
  return boundedString(value, attribute);
}

/** A SCIM boolean: true/false, or the strings "True"/"False" some clients send (Entra ID). */
export function scimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ScimError(400, `${attribute} must be a boolean.`, 'invalidValue');
}

/** A plain JSON object, or a 400 invalidSyntax. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ScimError(400, 'The request body must be a JSON object.', 'invalidSyntax');
  }
  return body as Record<string, unknown>;
}
