import type { Kysely, Selectable, Updateable } from 'kysely';
import type { ContactChannelsTable, Database } from '../storage/tables.ts';

/** A non-primary contact channel as stored (the primary email lives in `users`). */
export type ContactChannelRow = Selectable<ContactChannelsTable>;

export async function listChannelRows(db: Kysely<Database>, projectId: string, userId: string): Promise<ContactChannelRow[]> {
  return db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findChannelRow(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  id: string,
): Promise<ContactChannelRow | null> {
  const row = await db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

export async function findChannelRowByValue(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  type: string,
  value: string,
): Promise<ContactChannelRow | null> {
  const row = await db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .where('value', '=', value)
    .executeTakeFirst();
  return row ?? null;
}

/** Any user's auth-enabled (non-primary) channel with this value, or null. */
export async function findAuthChannelRow(
  db: Kysely<Database>,
  projectId: string,
  type: string,
  value: string,
): Promise<ContactChannelRow | null> {
  const row = await db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .where('value', '=', value)
    .where('used_for_auth', '=', true)
    .executeTakeFirst();
  return row ?? null;
}

/** Another user's auth-enabled channel with this value, or null. */
export async function findOtherAuthChannel(
  db: Kysely<Database>,
  projectId: string,
  type: string,
  value: string,
  exceptUserId: string,
): Promise<ContactChannelRow | null> {
  const row = await db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .where('value', '=', value)
    .where('used_for_auth', '=', true)
    .where('user_id', '!=', exceptUserId)
    .executeTakeFirst();
  return row ?? null;
}

export async function insertChannelRow(db: Kysely<Database>, row: ContactChannelRow): Promise<void> {
  await db.insertInto('contact_channels').values(row).execute();
}

export async function updateChannelRow(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  changes: Updateable<ContactChannelsTable>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('contact_channels').set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
}

export async function deleteChannelRow(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
  await db.deleteFrom('contact_channels').where('project_id', '=', projectId).where('id', '=', id).execute();
}
