import type { Kysely, Migration } from 'kysely';

/**
 * Verification codes, the email outbox (also the sent-email log), contact channels, notification
 * preferences, and project email themes, templates and drafts.
 */
export const email: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('verification_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('nonce_hash', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text')
      .addColumn('user_id', 'text')
      .addColumn('email', 'text')
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('verification_codes_code').on('verification_codes').columns(['project_id', 'code_hash']).unique().execute();
    await db.schema
      .createIndex('verification_codes_nonce')
      .on('verification_codes')
      .columns(['project_id', 'purpose', 'nonce_hash'])
      .execute();
    await db.schema
      .createIndex('verification_codes_subject')
      .on('verification_codes')
      .columns(['project_id', 'purpose', 'subject_id'])
      .execute();

    await db.schema
      .createTable('emails')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_id', 'text')
      .addColumn('to_email', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('html', 'text', (c) => c.notNull())
      .addColumn('text', 'text')
      .addColumn('notification_category', 'text')
      .addColumn('transport', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('locked_until', 'bigint')
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('sent_at', 'bigint')
      .execute();
    await db.schema.createIndex('emails_due').on('emails').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('emails_project').on('emails').columns(['project_id', 'created_at']).execute();

    await db.schema
      .createTable('contact_channels')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('is_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('used_for_auth', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('contact_channels_user').on('contact_channels').columns(['project_id', 'user_id']).execute();
    await db.schema.createIndex('contact_channels_value').on('contact_channels').columns(['project_id', 'type', 'value']).execute();

    await db.schema
      .createTable('notification_preferences')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('category_id', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_preferences_pk', ['project_id', 'user_id', 'category_id'])
      .execute();

    for (const table of ['email_themes', 'email_templates', 'email_drafts']) {
      await db.schema
        .createTable(table)
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('tsx_source', 'text', (c) => c.notNull())
        .addColumn('theme_id', 'text')
        .addColumn('sent_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['project_id', 'id'])
        .execute();
    }
  },
  async down(db: Kysely<any>) {
    for (const table of [
      'email_drafts',
      'email_templates',
      'email_themes',
      'notification_preferences',
      'contact_channels',
      'emails',
      'verification_codes',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
