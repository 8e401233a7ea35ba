import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { isUuidV4 } from '../lib/random.ts';
import { MetadataSchema, StoredEmailSchema, UuidSchema } from '../lib/schemas.ts';
import { findInputProblems } from '../operations/input-shape.ts';

/**
 * One line of Gatehouse's user import/export format (NDJSON): a JSON
 * object per line, either a team (`"type": "team"`) or a user (`"type": "user"`, the default).
 * Teams come before the users that belong to them. Every field but `type` is optional unless
 * noted; times are epoch milliseconds.
 *
 * User: `id` (kept when a UUID v4), `source_id` (the user's id at the source: the import is
 * idempotent by it, see {@link importUserId}), `primary_email`, `primary_email_verified`,
 * `primary_email_auth_enabled` (default true when there is an email), `display_name`,
 * `profile_image_url`, `signed_up_at_millis`, the three metadata fields, `password_hash` (any
 * format of core/auth-password/hash-formats.ts), `totp_secret_base64`, `oauth_providers`
 * (`{ id, account_id, email }`: the provider id as configured in the project), `teams`
 * (`{ id, permissions? }`: memberships of existing or imported teams; without `permissions` the
 * project's member defaults), `project_permissions` (without it the project's user defaults).
 *
 * Team: `id` (UUID v4, required), `display_name` (required), `profile_image_url`,
 * `created_at_millis`, the three metadata fields.
 */
const Times = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)));
const PermissionIds = v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(256))));

export const ImportedUserSchema = v.strictObject({
  type: v.optional(v.literal('user')),
  id: v.optional(UuidSchema),
  source_id: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(256))),
  primary_email: v.optional(v.nullable(StoredEmailSchema)),
  primary_email_verified: v.optional(v.boolean()),
  primary_email_auth_enabled: v.optional(v.boolean()),
  display_name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(256)))),
  profile_image_url: v.optional(v.nullable(v.pipe(v.string(), v.url(), v.maxLength(2048)))),
  signed_up_at_millis: Times,
  client_metadata: v.optional(MetadataSchema),
  client_read_only_metadata: v.optional(MetadataSchema),
  server_metadata: v.optional(MetadataSchema),
  password_hash: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1024)))),
  totp_secret_base64: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'is not valid base64')))),
  oauth_providers: v.optional(
    v.array(
      v.strictObject({
        id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
        account_id: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
        email: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(320)))),
      }),
    ),
  ),
  teams: v.optional(v.array(v.strictObject({ id: UuidSchema, permissions: PermissionIds }))),
  project_permissions: PermissionIds,
});

export const ImportedTeamSchema = v.strictObject({
  type: v.literal('team'),
  id: UuidSchema,
  display_name: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
  profile_image_url: v.optional(v.nullable(v.pipe(v.string(), v.url(), v.maxLength(2048)))),
  created_at_millis: Times,
  client_metadata: v.optional(MetadataSchema),
  client_read_only_metadata: v.optional(MetadataSchema),
  server_metadata: v.optional(MetadataSchema),
});

export type ImportedUser = v.InferOutput<typeof ImportedUserSchema>;
export type ImportedTeam = v.InferOutput<typeof ImportedTeamSchema>;
export type ImportRecord = ({ type: 'user' } & ImportedUser) | ImportedTeam;

/** A record that failed, as reported on its line: a stable code and a sentence. */
export interface RecordProblem {
  code: ImportErrorCode;
  message: string;
}

/** The per-line error codes of an import (docs/migrating.md lists them). */
export type ImportErrorCode =
  | 'MALFORMED_RECORD'
  | 'UNSUPPORTED_PASSWORD_HASH'
  | 'DUPLICATE_EMAIL'
  | 'DUPLICATE_RECORD'
  | 'UNKNOWN_TEAM'
  | 'UNKNOWN_PERMISSION'
  | 'UNKNOWN_OAUTH_PROVIDER'
  | 'OAUTH_ACCOUNT_ALREADY_LINKED'
  | 'WRITE_FAILED';

/**
 * Parses one NDJSON line into a record.
 * @returns the record, or the problem (MALFORMED_RECORD: not JSON, not an object, or a field
 *   that breaks the schema, named with its path).
 */
export function parseImportLine(line: string): ImportRecord | RecordProblem {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { code: 'MALFORMED_RECORD', message: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { code: 'MALFORMED_RECORD', message: 'A record must be a JSON object.' };
  // NUL, unpaired surrogates and deep nesting: refused per line as every API input is (PostgreSQL's
  // text cannot hold NUL; the batch's bulk insert would otherwise fail and fall back record by record).
  const [textProblem] = findInputProblems(value, 'record');
  if (textProblem) return { code: 'MALFORMED_RECORD', message: textProblem };
  const isTeam = (value as { type?: unknown }).type === 'team';
  const result = isTeam ? v.safeParse(ImportedTeamSchema, value) : v.safeParse(ImportedUserSchema, value);
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue.path?.map((p) => p.key).join('.') ?? 'record';
    return { code: 'MALFORMED_RECORD', message: `${path}: ${issue.message}` };
  }
  return isTeam ? (result.output as ImportedTeam) : { ...(result.output as ImportedUser), type: 'user' };
}

/**
 * True for an export's first and last lines (`{"type":"export",…}`, `{"type":"end"}`,
 * export-stream.ts), which an import skips like blank lines: an export file imports as it is.
 */
export function isExportFrame(line: string): boolean {
  return /^\s*\{\s*"type"\s*:\s*"(export|end)"/.test(line);
}

/** True when `value` is a problem rather than a record. */
export function isProblem(value: ImportRecord | RecordProblem): value is RecordProblem {
  return 'code' in value && 'message' in value && !('type' in value);
}

/**
 * The Gatehouse id of an imported user: its `id` when given (a UUID v4), else a UUID v4 derived
 * from the project and `source_id` (SHA-256, version and variant bits set), so importing the
 * same source twice finds the same user and updates it instead of duplicating it; else a new
 * random id (null here).
 */
export function importUserId(projectId: string, record: Pick<ImportedUser, 'id' | 'source_id'>): string | null {
  if (record.id) return record.id;
  if (record.source_id === undefined) return null;
  if (isUuidV4(record.source_id.toLowerCase())) return record.source_id.toLowerCase();
  const bytes = createHash('sha256').update(`gatehouse-import\0${projectId}\0${record.source_id}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
