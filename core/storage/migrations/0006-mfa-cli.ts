import type { Kysely, Migration } from 'kysely';

/**
 * Second factors and CLI login: the last TOTP time step each user spent (so a code
 * cannot be replayed within its window), hashed single-use recovery codes, and CLI login attempts.
 */
export const mfaCli: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('totp_used_steps')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('last_step', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('mfa_recovery_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('mfa_recovery_codes_user').on('mfa_recovery_codes').columns(['project_id', 'user_id']).execute();

    await db.schema
      .createTable('cli_auth_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('polling_code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('login_code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('anon_refresh_token_id', 'text')
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('completed_at', 'bigint')
      .addColumn('used_at', 'bigint')
      .execute();
  },
};
