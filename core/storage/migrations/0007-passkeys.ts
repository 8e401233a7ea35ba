import type { Kysely, Migration } from 'kysely';

/**
 * WebAuthn credentials (passkeys) registered by users. A credential id is unique within a project
 * (it is how sign-in finds the credential); a user may hold several (one per authenticator).
 */
export const passkeys: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('credential_id', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('device_type', 'text', (c) => c.notNull())
      .addColumn('backed_up', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passkeys_credential').on('passkeys').columns(['project_id', 'credential_id']).unique().execute();
    await db.schema.createIndex('passkeys_user').on('passkeys').columns(['project_id', 'user_id']).execute();
  },
};
