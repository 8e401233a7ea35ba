import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';

/**
 * The server secret: `explicit` when given (GATEHOUSE_SECRET), else the one stored in the
 * database, generated on first start. Keeping it in the database (not a local file) lets every
 * process sharing a PostgreSQL database sign and verify the same tokens.
 */
export async function loadServerSecret(db: Kysely<Database>, explicit?: string): Promise<string> {
  if (explicit) return explicit;
  const read = () => db.selectFrom('server_settings').select('value').where('key', '=', 'secret').executeTakeFirst();
  const existing = await read();
  if (existing) return existing.value;
  await db
    .insertInto('server_settings')
    .values({ key: 'secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await read())!.value;
}
