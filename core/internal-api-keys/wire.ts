import type { InternalApiKeyRow } from './queries.ts';

/** Internal API key set as listed: each key only as `{last_four}` (wire-protocol §2). */
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
