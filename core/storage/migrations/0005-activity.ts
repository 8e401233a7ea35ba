import type { Kysely, Migration } from 'kysely';

/** One row per user per UTC day with activity, for daily-active-user metrics. */
export const activity: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('user_active_days')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_active_days_pk', ['project_id', 'day', 'user_id'])
      .execute();
    await db.schema.createIndex('user_active_days_user').on('user_active_days').columns(['user_id']).execute();
  },
};
