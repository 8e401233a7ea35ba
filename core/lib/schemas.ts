import * as v from 'valibot';
import { isUuidV4 } from './random.ts';

/** Shared wire schema pieces. Messages follow the field path ("… must be a valid UUID"). */

export const UuidSchema = v.pipe(v.string(), v.check(isUuidV4, 'must be a valid UUID'));

/** A user id or `me` (wire-protocol §3 "user_id parameters accept me"). */
export const UserIdOrMeSchema = v.pipe(v.string(), v.check((s) => s === 'me' || isUuidV4(s), 'must be a valid UUID or "me"'));

/** Query booleans arrive as text. */
export const QueryBooleanSchema = v.pipe(v.picklist(['true', 'false']), v.transform((s) => s === 'true'));

/** Any JSON value (metadata objects). */
export const JsonSchema = v.unknown();

/** Epoch-ms integer. */
export const MillisSchema = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, 'must be non-negative'));

/** Empty success body (wire-protocol §1.2). */
export const success = { success: true } as const;
