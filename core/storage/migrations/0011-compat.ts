import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Images uploaded as base64 `data:` URLs (profile images, team images, project logos),
 * stored by Gatehouse and served from its own URL; and upstream's description of the default
 * `team_admin` definition on projects that still carry the earlier text.
 */
export const compat: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('stored_images')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('content_type', 'text', (c) => c.notNull())
      // Base64 text, not a blob: one column type on both dialects; images are capped at 1 MB.
      .addColumn('data_base64', 'text', (c) => c.notNull())
      .addColumn('byte_length', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('stored_images_project').on('stored_images').columns(['project_id']).execute();
    await sql`update permission_definitions set description = 'Default permission for team admins'
      where id = 'team_admin' and description = 'Default permission for team creators'`.execute(db);
  },
};
