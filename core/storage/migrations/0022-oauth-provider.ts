import type { Kysely, Migration } from 'kysely';

/**
 * Gatehouse as an identity provider (issue 31, docs/oauth-provider.md): the OAuth clients a
 * project registered (admin API or RFC 7591 dynamic registration), their secret only sealed;
 * and the `oidc-provider` models (sessions, interactions, grants, codes, tokens…) as JSON
 * payloads, keyed by the SHA-256 of their id (an opaque token's id is the token itself).
 */
export const oauthProvider: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('oauth_provider_clients')
      .addColumn('client_id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('metadata', 'text', (c) => c.notNull())
      .addColumn('client_secret_sealed', 'text')
      .addColumn('registered_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('oauth_provider_clients_project')
      .on('oauth_provider_clients')
      .columns(['project_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('oauth_provider_payloads')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('id_hash', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('user_code_hash', 'text')
      .addColumn('uid', 'text')
      .addColumn('account_id', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('consumed_at', 'bigint')
      .addPrimaryKeyConstraint('oauth_provider_payloads_pk', ['project_id', 'model', 'id_hash'])
      .execute();
    await db.schema
      .createIndex('oauth_provider_payloads_grant')
      .on('oauth_provider_payloads')
      .columns(['project_id', 'grant_id'])
      .execute();
    await db.schema
      .createIndex('oauth_provider_payloads_user_code')
      .on('oauth_provider_payloads')
      .columns(['project_id', 'user_code_hash'])
      .execute();
    await db.schema.createIndex('oauth_provider_payloads_uid').on('oauth_provider_payloads').columns(['project_id', 'uid']).execute();
    await db.schema
      .createIndex('oauth_provider_payloads_account')
      .on('oauth_provider_payloads')
      .columns(['project_id', 'account_id'])
      .execute();
    await db.schema.createIndex('oauth_provider_payloads_expiry').on('oauth_provider_payloads').columns(['expires_at']).execute();
  },
};
