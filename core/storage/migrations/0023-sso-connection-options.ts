import type { Kysely, Migration } from 'kysely';

/**
 * More options per SSO connection (issue 32, core/sso):
 * - `mfa_policy`: `trust_idp` (the IdP's sign-in is enough, the default) or `require_ours` (a user
 *   with TOTP gives the code after the SSO sign-in as after an OAuth sign-in).
 * - `group_permissions`: JSON `{"<IdP group>": ["<team permission id>", …]}` applied at every
 *   sign-in through the connection; null when groups are not mapped.
 * - `metadata_fetched_at`: when the IdP metadata of `idp_metadata_url` was last fetched (epoch
 *   ms; the background refresh claims a connection by moving it).
 */
export const ssoConnectionOptions: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('sso_connections')
      .addColumn('mfa_policy', 'text', (c) => c.notNull().defaultTo('trust_idp'))
      .execute();
    await db.schema.alterTable('sso_connections').addColumn('group_permissions', 'text').execute();
    await db.schema.alterTable('sso_connections').addColumn('metadata_fetched_at', 'bigint').execute();
  },
};
