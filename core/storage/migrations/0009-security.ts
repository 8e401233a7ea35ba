import type { Kysely, Migration } from 'kysely';

/**
 * The session revocation set every process polls (so a revoked session's
 * access tokens stop working on Gatehouse's own endpoints within seconds), and the token buckets
 * and failure counters of throttling (state in the database, so limits hold across processes);
 * sealed live content of emails that carry codes.
 */
export const security: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('revoked_sessions')
      .addColumn('refresh_token_id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('revoked_sessions_revoked_at').on('revoked_sessions').column('revoked_at').execute();

    await db.schema
      .createTable('throttle_buckets')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('tokens', 'double precision', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('allowed', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('throttle_buckets_updated_at').on('throttle_buckets').column('updated_at').execute();

    // Emails that carry a code keep their live content sealed, and in clear only with it redacted.
    await db.schema.alterTable('emails').addColumn('sealed_body', 'text').execute();
    await db.schema.createIndex('emails_created_at').on('emails').column('created_at').execute();
  },
};
