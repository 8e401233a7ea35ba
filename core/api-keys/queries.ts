import type { Kysely, Selectable, Insertable } from 'kysely';
import type { ApiKeysTable, Database } from '../storage/tables.ts';
import type { ApiKeyType } from './secret.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export async function insertApiKey(db: Kysely<Database>, row: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** A key of `type` by id in a project, or null. */
export async function findApiKey(db: Kysely<Database>, projectId: string, type: ApiKeyType, id: string): Promise<ApiKeyRow | null> {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** A key of any type by the SHA-256 of its secret (one unique-index lookup), or null. */
export async function findApiKeyByHash(db: Kysely<Database>, projectId: string, secretHash: string): Promise<ApiKeyRow | null> {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('secret_hash', '=', secretHash)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ?? null;
}

/** Keys of `type`, newest first, optionally of one user or team. */
export async function listApiKeys(
  db: Kysely<Database>,
  projectId: string,
  type: ApiKeyType,
  owner: { userId?: string; teamId?: string },
): Promise<ApiKeyRow[]> {
  let q = db.selectFrom('api_keys').selectAll().where('project_id', '=', projectId).where('type', '=', type);
  if (owner.userId) q = q.where('user_id', '=', owner.userId);
  if (owner.teamId) q = q.where('team_id', '=', owner.teamId);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function updateApiKey(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  changes: { description?: string; manually_revoked_at?: number },
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('api_keys').set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
}

/** Marks every unrevoked user API key of `userId` revoked at `now`. */
export async function revokeApiKeysOfUser(db: Kysely<Database>, projectId: string, userId: string, now: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ manually_revoked_at: now })
    .where('project_id', '=', projectId)
    .where('type', '=', 'user')
    .where('user_id', '=', userId)
    .where('manually_revoked_at', 'is', null)
    .execute();
}
