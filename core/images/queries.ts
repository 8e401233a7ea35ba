import type { Kysely, Selectable } from 'kysely';
import type { Database, StoredImagesTable } from '../storage/tables.ts';

export type StoredImageRow = Selectable<StoredImagesTable>;

export async function insertImage(db: Kysely<Database>, row: StoredImageRow): Promise<void> {
  await db.insertInto('stored_images').values(row).execute();
}

/** One stored image by id (ids are random UUIDs, so the URL is the capability). */
export async function findImage(db: Kysely<Database>, id: string): Promise<StoredImageRow | null> {
  return (await db.selectFrom('stored_images').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function deleteImage(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
  await db.deleteFrom('stored_images').where('project_id', '=', projectId).where('id', '=', id).execute();
}
