import type { Kysely, Selectable } from 'kysely';
import type { Database, PasskeysTable } from '../storage/tables.ts';

/** A passkey row as stored. */
export type PasskeyRow = Selectable<PasskeysTable>;

export async function insertPasskey(db: Kysely<Database>, row: PasskeyRow): Promise<void> {
  await db.insertInto('passkeys').values(row).execute();
}

/** The project's passkey with this credential id (credential ids are unique per project), or null. */
export async function findPasskeyByCredentialId(db: Kysely<Database>, projectId: string, credentialId: string): Promise<PasskeyRow | null> {
  const row = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
  return row ?? null;
}

/** A user's passkeys, oldest first. */
export function listUserPasskeys(db: Kysely<Database>, projectId: string, userId: string): Promise<PasskeyRow[]> {
  return db
    .selectFrom('passkeys')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Replaces the key material of an existing credential (the same authenticator registered again). */
export async function replacePasskeyKey(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  changes: Pick<PasskeyRow, 'public_key' | 'counter' | 'transports' | 'device_type' | 'backed_up'>,
): Promise<void> {
  await db.updateTable('passkeys').set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
}

/** Records a successful sign-in: the authenticator's new signature counter and the time. */
export async function recordPasskeyUse(db: Kysely<Database>, projectId: string, id: string, counter: number, now: number): Promise<void> {
  await db.updateTable('passkeys').set({ counter, last_used_at: now }).where('project_id', '=', projectId).where('id', '=', id).execute();
}

/** Deletes one of a user's passkeys; true when it existed. */
export async function deletePasskeyRow(db: Kysely<Database>, projectId: string, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('passkeys')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes every passkey of a user; the number deleted. */
export async function deleteUserPasskeyRows(db: Kysely<Database>, projectId: string, userId: string): Promise<number> {
  const result = await db.deleteFrom('passkeys').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many passkeys a user holds. */
export async function countUserPasskeys(db: Kysely<Database>, projectId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
