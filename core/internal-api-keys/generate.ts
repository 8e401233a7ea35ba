import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { sha256Hex } from '../lib/hash.ts';
import { secureRandomString, uuid } from '../lib/random.ts';
import { insertInternalApiKey, type InternalApiKeyRow } from './queries.ts';

/** The full key values of a new set; shown once, then only their last four characters. */
export interface ProjectKeyValues {
  publishable_client_key?: string;
  secret_server_key?: string;
  super_secret_admin_key?: string;
}

const PREFIX = { publishable_client_key: 'pck_', secret_server_key: 'ssk_', super_secret_admin_key: 'sak_' } as const;

/** Generates key values: prefix + 45-char random string (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx "Internal API keys"). */
export function generateKeyValues(kinds: { publishable: boolean; secret: boolean; admin: boolean }): ProjectKeyValues {
  return {
    ...(kinds.publishable ? { publishable_client_key: PREFIX.publishable_client_key + secureRandomString() } : {}),
    ...(kinds.secret ? { secret_server_key: PREFIX.secret_server_key + secureRandomString() } : {}),
    ...(kinds.admin ? { super_secret_admin_key: PREFIX.super_secret_admin_key + secureRandomString() } : {}),
  };
}

/** Stores a key set for `projectId`, keeping only SHA-256 hashes and last fours of the values. */
export async function storeKeySet(
  db: Kysely<Database>,
  projectId: string,
  values: ProjectKeyValues,
  meta: { description: string; now: number; expiresAt: number | null },
): Promise<InternalApiKeyRow> {
  const last4 = (v?: string) => (v ? v.slice(-4) : null);
  const hash = (v?: string) => (v ? sha256Hex(v) : null);
  const row: InternalApiKeyRow = {
    id: uuid(),
    project_id: projectId,
    description: meta.description,
    created_at: meta.now,
    expires_at: meta.expiresAt,
    manually_revoked_at: null,
    publishable_client_key_hash: hash(values.publishable_client_key),
    publishable_client_key_last_four: last4(values.publishable_client_key),
    secret_server_key_hash: hash(values.secret_server_key),
    secret_server_key_last_four: last4(values.secret_server_key),
    super_secret_admin_key_hash: hash(values.super_secret_admin_key),
    super_secret_admin_key_last_four: last4(values.super_secret_admin_key),
  };
  await insertInternalApiKey(db, row);
  return row;
}
