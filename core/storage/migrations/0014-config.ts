import type { Kysely, Migration } from 'kysely';

/**
 * Configuration as code: the project / branch / environment overrides of Stack's
 * configuration model, and the data vault's entries (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts).
 */
export const config: Migration = {
  async up(db: Kysely<any>) {
    // One row per project and level (branch_id '' at the project level, else the branch, `main`).
    // `config` is the override JSON as written (dotted keys kept); `source` is the branch's config
    // source (`{ "type": "unlinked" }`, `pushed-from-unknown`, `pushed-from-github`).
    await db.schema
      .createTable('config_overrides')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('branch_id', 'text', (c) => c.notNull())
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('source', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('config_overrides_pk', ['project_id', 'level', 'branch_id'])
      .execute();

    // Data vault entries: `hashed_key` is the SDK's PBKDF2 hash of the key; `sealed_value` is
    // the SDK's already-encrypted value sealed again with AES-256-GCM under the per-project,
    // per-store key named by `key_id` (so keys can rotate).
    await db.schema
      .createTable('data_vault_entries')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('hashed_key', 'text', (c) => c.notNull())
      .addColumn('sealed_value', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('data_vault_entries_pk', ['project_id', 'store_id', 'hashed_key'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('data_vault_entries').execute();
    await db.schema.dropTable('config_overrides').execute();
  },
};
