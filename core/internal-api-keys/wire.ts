import * as v from 'valibot';
import { component, MillisOutput } from '../operations/output.ts';
import type { InternalApiKeyRow } from './queries.ts';

/** Internal API key set as listed: each key only as `{last_four}` (upstream apps/backend/prisma/seed.ts). */
export function toInternalApiKey(row: InternalApiKeyRow) {
  return {
    id: row.id,
    description: row.description,
    created_at_millis: Number(row.created_at),
    expires_at_millis: row.expires_at === null ? null : Number(row.expires_at),
    ...(row.manually_revoked_at !== null ? { manually_revoked_at_millis: Number(row.manually_revoked_at) } : {}),
    ...(row.publishable_client_key_last_four ? { publishable_client_key: { last_four: row.publishable_client_key_last_four } } : {}),
    ...(row.secret_server_key_last_four ? { secret_server_key: { last_four: row.secret_server_key_last_four } } : {}),
    ...(row.super_secret_admin_key_last_four ? { super_secret_admin_key: { last_four: row.super_secret_admin_key_last_four } } : {}),
  };
}

const LastFourOutput = v.strictObject({ last_four: v.string() });

/** Output schema of `toInternalApiKey`. */
export const InternalApiKeyOutput = component(
  'InternalApiKey',
  v.strictObject({
    id: v.string(),
    description: v.string(),
    created_at_millis: MillisOutput,
    expires_at_millis: v.nullable(MillisOutput),
    manually_revoked_at_millis: v.optional(MillisOutput),
    publishable_client_key: v.optional(LastFourOutput),
    secret_server_key: v.optional(LastFourOutput),
    super_secret_admin_key: v.optional(LastFourOutput),
  }),
);

/** The create answer: the key values in full, shown this once. */
export const CreatedInternalApiKeyOutput = component(
  'CreatedInternalApiKey',
  v.strictObject({
    id: v.string(),
    description: v.string(),
    created_at_millis: MillisOutput,
    expires_at_millis: v.nullable(MillisOutput),
    publishable_client_key: v.optional(v.string()),
    secret_server_key: v.optional(v.string()),
    super_secret_admin_key: v.optional(v.string()),
  }),
);
