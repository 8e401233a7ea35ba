import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `users.source_id`: a user's id at the system it was imported from (`gatehouse import`, any
 * string the source uses: Clerk's `user_…`, Auth0's `auth0|…`, Firebase's `localId`), unique per
 * project, so re-running an import finds the user it created and updates it instead of adding
 * another. Null for users not imported (and for users imported before this column, whose ids were
 * derived from their source id: the import still finds those by id).
 */
export const importSourceId: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('source_id', 'text').execute();
    await db.schema
      .createIndex('users_project_source_id')
      .unique()
      .on('users')
      .columns(['project_id', 'source_id'])
      .where(sql.ref('source_id'), 'is not', null)
      .execute();
  },
};
