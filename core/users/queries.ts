import type { Kysely, Selectable, Insertable, Updateable } from 'kysely';
import type { Database, UsersTable } from '../storage/tables.ts';

/** A user row as stored. Domain code reads these fields directly. */
export type UserRow = Selectable<UsersTable>;

export async function findUser(db: Kysely<Database>, projectId: string, userId: string): Promise<UserRow | null> {
  const row = await db.selectFrom('users').selectAll().where('project_id', '=', projectId).where('id', '=', userId).executeTakeFirst();
  return row ?? null;
}

/** The user signing in with `email` (auth-enabled primary email), or null. `email` must be normalized. */
export async function findUserByAuthEmail(db: Kysely<Database>, projectId: string, email: string): Promise<UserRow | null> {
  const row = await db.selectFrom('users').selectAll()
    .where('project_id', '=', projectId).where('primary_email', '=', email).where('primary_email_auth_enabled', '=', 1)
    .executeTakeFirst();
  return row ?? null;
}

export async function insertUser(db: Kysely<Database>, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUser(db: Kysely<Database>, projectId: string, userId: string, changes: Updateable<UsersTable>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('users').set(changes).where('project_id', '=', projectId).where('id', '=', userId).execute();
}

export async function deleteUser(db: Kysely<Database>, projectId: string, userId: string): Promise<void> {
  await db.deleteFrom('users').where('project_id', '=', projectId).where('id', '=', userId).execute();
}
