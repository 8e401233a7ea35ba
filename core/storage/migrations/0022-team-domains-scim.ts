import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Verified email domains of teams and SCIM 2.0 provisioning (issue 32 items 3 and 4):
 * - `team_domains`: a domain a team claims, its DNS TXT challenge value and, once proved,
 *   `verified_at`; `verified_domain` holds the name only while verified, so the unique index makes
 *   a domain verified by one team of a project at a time (core/team-domains);
 * - `scim_tokens`: a team's SCIM bearer tokens, stored hashed (SHA-256), revocable;
 * - `scim_users`: the users a team's SCIM client provisioned (`scim_active` false when deactivated),
 *   whether SCIM created the account (`created_by_scim`); `scim_groups` and `scim_group_members`:
 *   the team's SCIM groups, mapped to team permissions (core/scim/groups.ts).
 * Also gives every existing project the closure row of the new `$manage_sso` system permission.
 */
export const teamDomainsScim: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('team_domains')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('challenge_value', 'text', (c) => c.notNull())
      .addColumn('verified_domain', 'text')
      .addColumn('verified_at', 'bigint')
      .addColumn('sso_enforced', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_domains_pk', ['project_id', 'team_id', 'domain'])
      .addForeignKeyConstraint('team_domains_team_fk', ['team_id'], 'teams', ['id'], (fk) => fk.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('team_domains_verified').on('team_domains').columns(['project_id', 'verified_domain']).unique().execute();

    await db.schema
      .createTable('scim_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('last_four', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('scim_tokens_team').on('scim_tokens').columns(['project_id', 'team_id']).execute();

    await db.schema
      .createTable('scim_users')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('given_name', 'text')
      .addColumn('family_name', 'text')
      .addColumn('scim_active', 'integer', (c) => c.notNull())
      .addColumn('created_by_scim', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('scim_users_pk', ['team_id', 'user_id'])
      .execute();
    await db.schema.createIndex('scim_users_user_name').on('scim_users').columns(['team_id', 'user_name']).unique().execute();

    await db.schema
      .createTable('scim_groups')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('scim_groups_name').on('scim_groups').columns(['team_id', 'display_name']).unique().execute();
    await db.schema
      .createTable('scim_group_members')
      .addColumn('group_id', 'text', (c) => c.notNull().references('scim_groups.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'user_id'])
      .execute();

    // `$manage_sso` implies itself in every existing project (new projects get it from computeClosure).
    await sql`insert into permission_closure (project_id, scope, ancestor_id, descendant_id)
      select p.id, 'team', '$manage_sso', '$manage_sso' from projects p
      where not exists (select 1 from permission_closure c where c.project_id = p.id and c.scope = 'team'
        and c.ancestor_id = '$manage_sso' and c.descendant_id = '$manage_sso')`.execute(db);
  },
};
