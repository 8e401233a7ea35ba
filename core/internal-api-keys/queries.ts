import type { Kysely, Selectable, Insertable } from 'kysely';
import type { Database, InternalApiKeysTable } from '../storage/tables.ts';
import { precompiled } from '../storage/precompiled.ts';

export type InternalApiKeyRow = Selectable<InternalApiKeysTable>;

/** The three project key kinds (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx). */
export type ProjectKeyKind = 'publishable_client_key' | 'secret_server_key' | 'super_secret_admin_key';

/**
 * True when `projectId` has a key set holding a key of `kind` whose SHA-256 is `hash`, that is
 * neither revoked nor expired at `now` (epoch ms). The lookup goes through the hash index, so no
 * stored secret is ever compared byte by byte.
 */
export async function hasValidProjectKey(
  db: Kysely<Database>,
  projectId: string,
  kind: ProjectKeyKind,
  hash: string,
  now: number,
): Promise<boolean> {
  const key = await findProjectKeyExpiry(db, projectId, kind, hash);
  return key !== false && (key.expiresAt === null || key.expiresAt > now);
}

/** The expiry lookup of one key kind: the hash column differs, so each kind has its own SQL. */
function keyExpiryQuery(kind: ProjectKeyKind) {
  return precompiled((db, a: { projectId: string; hash: string }) =>
    db
      .selectFrom('internal_api_keys')
      .select(['id', 'expires_at'])
      .where(`${kind}_hash`, '=', a.hash)
      .where('project_id', '=', a.projectId)
      .where('manually_revoked_at', 'is', null),
  );
}

const keyExpiryByKind: Record<ProjectKeyKind, ReturnType<typeof keyExpiryQuery>> = {
  publishable_client_key: keyExpiryQuery('publishable_client_key'),
  secret_server_key: keyExpiryQuery('secret_server_key'),
  super_secret_admin_key: keyExpiryQuery('super_secret_admin_key'),
};

/**
 * The expiry (epoch ms, null for never) of the unrevoked key of `kind` whose SHA-256 is `hash`
 * in `projectId`, or false when there is none. Split from the time check so it can be cached.
 * Precompiled (core/storage/precompiled.ts): it runs for every request carrying a project key.
 */
export async function findProjectKeyExpiry(
  db: Kysely<Database>,
  projectId: string,
  kind: ProjectKeyKind,
  hash: string,
): Promise<{ expiresAt: number | null } | false> {
  const row = await keyExpiryByKind[kind].executeTakeFirst(db, { projectId, hash });
  return row ? { expiresAt: row.expires_at === null ? null : Number(row.expires_at) } : false;
}

export async function insertInternalApiKey(db: Kysely<Database>, row: Insertable<InternalApiKeysTable>): Promise<void> {
  await db.insertInto('internal_api_keys').values(row).execute();
}

export async function findInternalApiKey(db: Kysely<Database>, projectId: string, id: string): Promise<InternalApiKeyRow | null> {
  const row = await db
    .selectFrom('internal_api_keys')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

export async function listInternalApiKeys(db: Kysely<Database>, projectId: string): Promise<InternalApiKeyRow[]> {
  return db
    .selectFrom('internal_api_keys')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function revokeInternalApiKey(db: Kysely<Database>, projectId: string, id: string, now: number): Promise<void> {
  await db
    .updateTable('internal_api_keys')
    .set({ manually_revoked_at: now })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('manually_revoked_at', 'is', null)
    .execute();
}

export async function updateInternalApiKeyDescription(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  description: string,
): Promise<void> {
  await db.updateTable('internal_api_keys').set({ description }).where('project_id', '=', projectId).where('id', '=', id).execute();
}
