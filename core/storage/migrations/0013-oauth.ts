import type { Kysely, Migration } from 'kysely';

/**
 * OAuth sign-in: in-flight provider flows, Gatehouse's own authorization codes, the
 * provider accounts linked to users, and provider tokens (encrypted at rest).
 */
export const oauth: Migration = {
  async up(db: Kysely<any>) {
    // One row per flow sent to a provider, keyed by the SHA-256 of the state sent there.
    await db.schema
      .createTable('oauth_flows')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('sealed_data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth_flows_expires').on('oauth_flows').columns(['expires_at']).execute();

    // Codes Gatehouse hands to the app's redirect_uri (RFC 6749 §4.1.2), stored hashed.
    await db.schema
      .createTable('oauth_authorization_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('code_challenge', 'text', (c) => c.notNull())
      .addColumn('is_new_user', 'integer', (c) => c.notNull())
      // `sign_in` (OAuth callback; the multi-factor rule applies) or `handoff` (cross-domain, an existing session).
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('after_callback_redirect_url', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();

    await db.schema
      .createTable('oauth_accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('provider_account_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('allow_sign_in', 'integer', (c) => c.notNull())
      .addColumn('allow_connected_accounts', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('oauth_accounts_provider_account')
      .on('oauth_accounts')
      .columns(['project_id', 'provider_id', 'provider_account_id'])
      .unique()
      .execute();
    await db.schema.createIndex('oauth_accounts_user').on('oauth_accounts').columns(['project_id', 'user_id', 'created_at']).execute();

    // Provider refresh and access tokens; `sealed_token` is AES-256-GCM under a key derived from the server secret.
    await db.schema
      .createTable('oauth_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('oauth_account_id', 'text', (c) => c.notNull().references('oauth_accounts.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('sealed_token', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('is_valid', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth_tokens_account').on('oauth_tokens').columns(['oauth_account_id', 'kind']).execute();
  },
};
