import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';

/** A stored data-vault entry (value still sealed). */
export interface DataVaultEntry {
  sealedValue: string;
  keyId: string;
}

export async function findDataVaultEntry(
  db: Kysely<Database>,
  projectId: string,
  storeId: string,
  hashedKey: string,
): Promise<DataVaultEntry | null> {
  const row = await db
    .selectFrom('data_vault_entries')
    .select(['sealed_value', 'key_id'])
    .where('project_id', '=', projectId)
    .where('store_id', '=', storeId)
    .where('hashed_key', '=', hashedKey)
    .executeTakeFirst();
  return row ? { sealedValue: row.sealed_value, keyId: row.key_id } : null;
}

/** Inserts or replaces the entry of `hashedKey` in one project's store. */
export async function upsertDataVaultEntry(
  db: Kysely<Database>,
  e: { projectId: string; storeId: string; hashedKey: string; sealedValue: string; keyId: string; now: number },
): Promise<void> {
  await db
    .insertInto('data_vault_entries')
    .values({
      project_id: e.projectId,
      store_id: e.storeId,
      hashed_key: e.hashedKey,
      sealed_value: e.sealedValue,
      key_id: e.keyId,
      created_at: e.now,
      updated_at: e.now,
    })
    .onConflict((oc) =>
      oc.columns(['project_id', 'store_id', 'hashed_key']).doUpdateSet({ sealed_value: e.sealedValue, key_id: e.keyId, updated_at: e.now }),
    )
    .execute();
}

/** Number of entries per store of a project. */
export async function countDataVaultEntries(db: Kysely<Database>, projectId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('data_vault_entries')
    .select(['store_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_id', '=', projectId)
    .groupBy('store_id')
    .execute();
  return new Map(rows.map((r) => [r.store_id, Number(r.n)]));
}
