import type { Kysely, Migration } from 'kysely';

/**
 * Hourly trigger counts per rule (what `GET /internal/sign-up-rules-stats`
 * reads; one row per project, branch, rule, action and hour, so the table stays small), and the
 * hashed facts of each sign-up the risk scores compare new sign-ups with (client address and email
 * base, never in clear).
 */
export const signUpRules: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sign_up_rule_trigger_counts')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('hour_start', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('sign_up_rule_trigger_counts_pk', ['project_id', 'branch_id', 'rule_id', 'action', 'hour_start'])
      .execute();

    await db.schema
      .createTable('sign_up_facts')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('signed_up_at', 'bigint', (c) => c.notNull())
      .addColumn('address_hash', 'text')
      .addColumn('email_base_hash', 'text')
      .execute();
    await db.schema
      .createIndex('sign_up_facts_address')
      .on('sign_up_facts')
      .columns(['project_id', 'address_hash', 'signed_up_at'])
      .execute();
    await db.schema
      .createIndex('sign_up_facts_email_base')
      .on('sign_up_facts')
      .columns(['project_id', 'email_base_hash', 'signed_up_at'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('sign_up_facts').execute();
    await db.schema.dropTable('sign_up_rule_trigger_counts').execute();
  },
};
