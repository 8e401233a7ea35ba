import type { Kysely } from 'kysely';
import type { Database, OAuthProviderClientsTable, OAuthProviderPayloadsTable } from '../storage/tables.ts';
import { forgetCachedClients } from './client-cache.ts';

/** An OAuth client row of a project's identity provider. */
export type OAuthClientRow = OAuthProviderClientsTable;

/** The client `clientId` of project `projectId`, or null. */
export async function findClientRow(db: Kysely<Database>, projectId: string, clientId: string): Promise<OAuthClientRow | null> {
  return (
    (await db
      .selectFrom('oauth_provider_clients')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('client_id', '=', clientId)
      .executeTakeFirst()) ?? null
  );
}

/** The project's clients, oldest first (at most `limit`). */
export async function listClientRows(db: Kysely<Database>, projectId: string, limit: number): Promise<OAuthClientRow[]> {
  return db
    .selectFrom('oauth_provider_clients')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'asc')
    .orderBy('client_id', 'asc')
    .limit(limit)
    .execute();
}

/** Stores a client, replacing its metadata and secret when `client_id` exists in the same project. */
export async function upsertClientRow(db: Kysely<Database>, row: OAuthClientRow): Promise<void> {
  forgetCachedClients();
  await db
    .insertInto('oauth_provider_clients')
    .values(row)
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({
        metadata: row.metadata,
        client_secret_sealed: row.client_secret_sealed,
        updated_at: row.updated_at,
      }),
    )
    .execute();
  forgetCachedClients();
}

/** Removes a client and everything the provider stored for it; true when it existed. */
export async function deleteClientRow(db: Kysely<Database>, projectId: string, clientId: string): Promise<boolean> {
  forgetCachedClients();
  const result = await db
    .deleteFrom('oauth_provider_clients')
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  forgetCachedClients();
  return Number(result.numDeletedRows) > 0;
}

/** One stored `oidc-provider` model instance. */
export type PayloadRow = OAuthProviderPayloadsTable;

/** Stores (or replaces) a model instance. */
export async function upsertPayloadRow(db: Kysely<Database>, row: PayloadRow): Promise<void> {
  const { project_id: _p, model: _m, id_hash: _i, ...rest } = row;
  await db
    .insertInto('oauth_provider_payloads')
    .values(row)
    .onConflict((oc) => oc.columns(['project_id', 'model', 'id_hash']).doUpdateSet(rest))
    .execute();
}

/** The unexpired instance of `model` matching `where`, or null; `now` null finds an expired one too (until swept). */
export async function findPayloadRow(
  db: Kysely<Database>,
  projectId: string,
  model: string,
  where: { column: 'id_hash' | 'uid' | 'user_code_hash'; value: string },
  now: number | null,
): Promise<PayloadRow | null> {
  let query = db
    .selectFrom('oauth_provider_payloads')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where(where.column, '=', where.value);
  if (now !== null) query = query.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  return (await query.executeTakeFirst()) ?? null;
}

/** Marks an instance consumed at `now` (authorization codes, rotated refresh tokens, device codes). */
export async function consumePayloadRow(
  db: Kysely<Database>,
  projectId: string,
  model: string,
  idHash: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('oauth_provider_payloads')
    .set({ consumed_at: now })
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where('id_hash', '=', idHash)
    .execute();
}

/** Removes one instance. */
export async function deletePayloadRow(db: Kysely<Database>, projectId: string, model: string, idHash: string): Promise<void> {
  await db
    .deleteFrom('oauth_provider_payloads')
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where('id_hash', '=', idHash)
    .execute();
}

/** Removes every instance of a grant (revocation, refresh-token reuse). */
export async function deleteGrantRows(db: Kysely<Database>, projectId: string, grantId: string): Promise<void> {
  await db.deleteFrom('oauth_provider_payloads').where('project_id', '=', projectId).where('grant_id', '=', grantId).execute();
}

/** Removes instances expired before `now`; the number removed. */
export async function deleteExpiredPayloadRows(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('oauth_provider_payloads').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The unexpired instances of `model` stored for user `accountId` of the project (their grants), oldest first. */
export async function listAccountPayloadRows(
  db: Kysely<Database>,
  projectId: string,
  model: string,
  accountId: string,
  now: number,
): Promise<PayloadRow[]> {
  return db
    .selectFrom('oauth_provider_payloads')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id_hash')
    .limit(1000)
    .execute();
}
