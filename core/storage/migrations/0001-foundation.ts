import { sql, type Kysely, type Migration } from 'kysely';

/** Projects, internal API keys, users, teams, memberships and refresh tokens. */
export const foundation: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('server_settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('is_production_mode', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_development_environment', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('owner_team_id', 'text')
      .addColumn('logo_url', 'text')
      .addColumn('logo_full_url', 'text')
      .addColumn('logo_dark_mode_url', 'text')
      .addColumn('logo_full_dark_mode_url', 'text')
      .addColumn('config', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('projects_owner_team_id').on('projects').column('owner_team_id').execute();

    await db.schema
      .createTable('internal_api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('manually_revoked_at', 'bigint')
      .addColumn('publishable_client_key_hash', 'text')
      .addColumn('publishable_client_key_last_four', 'text')
      .addColumn('secret_server_key_hash', 'text')
      .addColumn('secret_server_key_last_four', 'text')
      .addColumn('super_secret_admin_key_hash', 'text')
      .addColumn('super_secret_admin_key_last_four', 'text')
      .execute();
    for (const kind of ['publishable_client_key', 'secret_server_key', 'super_secret_admin_key']) {
      await db.schema
        .createIndex(`internal_api_keys_${kind}_hash`)
        .on('internal_api_keys')
        .columns([`${kind}_hash`])
        .execute();
    }
    await db.schema.createIndex('internal_api_keys_project').on('internal_api_keys').columns(['project_id', 'created_at']).execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('display_name', 'text')
      .addColumn('primary_email', 'text')
      .addColumn('primary_email_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('primary_email_auth_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('profile_image_url', 'text')
      .addColumn('signed_up_at', 'bigint', (c) => c.notNull())
      .addColumn('last_active_at', 'bigint')
      .addColumn('client_metadata', 'text')
      .addColumn('client_read_only_metadata', 'text')
      .addColumn('server_metadata', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('otp_auth_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('passkey_auth_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('totp_secret_base64', 'text')
      .addColumn('is_anonymous', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('selected_team_id', 'text')
      .addColumn('restricted_by_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('restricted_by_admin_reason', 'text')
      .addColumn('restricted_by_admin_private_details', 'text')
      .addColumn('country_code', 'text')
      .addColumn('risk_scores', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_project_signed_up').on('users').columns(['project_id', 'signed_up_at', 'id']).execute();
    // One account per auth-enabled email in a project (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts; upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ contact channel).
    await db.schema
      .createIndex('users_project_auth_email')
      .on('users')
      .columns(['project_id', 'primary_email'])
      .unique()
      .where(sql.ref('primary_email_auth_enabled'), '=', 1)
      .execute();
    await db.schema.createIndex('users_project_email').on('users').columns(['project_id', 'primary_email']).execute();

    await db.schema
      .createTable('teams')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('profile_image_url', 'text')
      .addColumn('client_metadata', 'text')
      .addColumn('client_read_only_metadata', 'text')
      .addColumn('server_metadata', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('teams_project_created').on('teams').columns(['project_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('team_members')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('display_name', 'text')
      .addColumn('profile_image_url', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
      .execute();
    await db.schema.createIndex('team_members_user').on('team_members').columns(['user_id', 'team_id']).execute();

    await db.schema
      .createTable('refresh_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('is_impersonation', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').columns(['user_id', 'created_at']).execute();
  },
};
