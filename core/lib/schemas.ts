import * as v from 'valibot';
import { isUuidV4 } from './random.ts';
import { isValidEmail, isValidLegacyEmail } from './email.ts';

/** Shared wire schema pieces. Messages follow the field path ("… must be a valid UUID"). */

export const UuidSchema = v.pipe(v.string(), v.check(isUuidV4, 'must be a valid UUID'));

/** A user id or `me` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/ "user_id parameters accept me"). */
export const UserIdOrMeSchema = v.pipe(
  v.string(),
  v.check((s) => s === 'me' || isUuidV4(s), 'must be a valid UUID or "me"'),
);

/** Query booleans arrive as text. */
export const QueryBooleanSchema = v.pipe(
  v.picklist(['true', 'false']),
  v.transform((s) => s === 'true'),
);

import { METADATA_MAX_DEPTH, METADATA_MAX_LENGTH, isNestedAtMost } from './metadata-limits.ts';

/**
 * `client_metadata`, `client_read_only_metadata`, `server_metadata` of users and teams: any JSON
 * value or null, at most METADATA_MAX_DEPTH levels deep and METADATA_MAX_LENGTH characters of
 * JSON. Upstream sets no bound; without one a single end user stored metadata that made the
 * project's user listings answer 500. Documented in docs/security.md.
 */
export const MetadataSchema = v.nullable(
  v.pipe(
    v.unknown(),
    v.check((value) => isNestedAtMost(value, METADATA_MAX_DEPTH), `must be nested at most ${METADATA_MAX_DEPTH} levels deep`),
    // (Measured only within the depth bound: the first check's problem is the one to report.)
    v.check(
      (value) => !isNestedAtMost(value, METADATA_MAX_DEPTH) || JSON.stringify(value ?? null).length <= METADATA_MAX_LENGTH,
      `must be at most ${METADATA_MAX_LENGTH} characters long as JSON`,
    ),
  ),
);

/**
 * Largest page a listing serves when upstream sets no maximum of its own (`GET /users`,
 * `GET /teams`): a bound, so a huge `limit` is a SCHEMA_ERROR instead of a database error
 *, high enough for any client written against upstream.
 */
export const LIST_LIMIT_MAX = 10_000;

/**
 * A page size sent as query text: a whole number from 1 to `max` (upstream's maximum where it
 * has one), else SCHEMA_ERROR naming the bound. Every listing with a `limit` uses it or a
 * bound of its own.
 */
export function pageLimitSchema(max: number) {
  return v.pipe(
    v.string(),
    v.regex(/^[0-9]+$/, 'must be a positive integer'),
    v.transform(Number),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(max, `must be at most ${max}`),
  );
}

/** Epoch-ms integer. */
export const MillisSchema = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, 'must be non-negative'));

/** Empty success body (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx). */
/** An email address by the upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts rule (core/lib/email.ts). */
export const EmailSchema = v.pipe(v.string(), v.check(isValidEmail, 'must be a valid email'));

/** A stored address by upstream's looser `emailSchema` (core/lib/email.ts `isValidLegacyEmail`). */
export const StoredEmailSchema = v.pipe(v.string(), v.check(isValidLegacyEmail, 'must be a valid email'));

export const success = { success: true } as const;
