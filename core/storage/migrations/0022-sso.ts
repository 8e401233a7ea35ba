import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Team SSO connections (core/sso, issue 32): one row per SAML or OpenID connection of a team,
 * its secrets sealed (AES-256-GCM: the SP private key, the OpenID client secret); the SAML
 * assertion ids already used (replay refusal, kept until the assertion expires); and the system
 * team permission `$manage_sso` in every existing project's permission closure (new projects get
 * it from the closure rebuild; `team_admin` of new projects contains it).
 */
export const sso: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sso_connections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text')
      .addColumn('domains', 'text', (c) => c.notNull())
      .addColumn('default_permissions', 'text')
      .addColumn('attribute_mapping', 'text', (c) => c.notNull())
      .addColumn('allow_idp_initiated', 'integer', (c) => c.notNull())
      .addColumn('idp_initiated_redirect_url', 'text')
      .addColumn('idp_entity_id', 'text')
      .addColumn('idp_sso_url', 'text')
      .addColumn('idp_certificates', 'text')
      .addColumn('idp_metadata_url', 'text')
      .addColumn('sp_certificate', 'text')
      .addColumn('sp_private_key_sealed', 'text')
      .addColumn('issuer_url', 'text')
      .addColumn('client_id', 'text')
      .addColumn('client_secret_sealed', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sso_connections_team').on('sso_connections').columns(['project_id', 'team_id', 'created_at']).execute();

    await db.schema
      .createTable('sso_used_assertions')
      .addColumn('connection_id', 'text', (c) => c.notNull().references('sso_connections.id').onDelete('cascade'))
      .addColumn('assertion_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('sso_used_assertions_pk', ['connection_id', 'assertion_id'])
      .execute();
    await db.schema.createIndex('sso_used_assertions_expiry').on('sso_used_assertions').columns(['expires_at']).execute();

    // Guarded: migration 0022-team-domains-scim adds the same row, and either may run first.
    await sql`insert into permission_closure (project_id, scope, ancestor_id, descendant_id)
      select p.id, 'team', '$manage_sso', '$manage_sso' from projects p
      where not exists (select 1 from permission_closure c where c.project_id = p.id and c.scope = 'team'
        and c.ancestor_id = '$manage_sso' and c.descendant_id = '$manage_sso')`.execute(db);
  },
};
