import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import { testDialects, createTestDatabase } from '../../test/helpers/dialects.ts';
import { migrateToLatest } from '../storage/adapter.ts';
import { migrations } from '../storage/migrations/index.ts';
import { defaultProjectConfig } from '../config/project-config.ts';
import { insertProject } from '../projects/queries.ts';
import { hasTeamPermission } from './index.ts';

for (const dialect of testDialects()) {
  describe(`migration 0004 on existing data [${dialect}]`, () => {
    it('gives projects created before it the default team definitions and a closure that answers checks', async () => {
      const database = await createTestDatabase(dialect);
      const adapter = database.open();
      try {
        // Bring the schema to just before 0004, as a data folder from an earlier version would be.
        const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0004'));
        const schema =
          dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(adapter.db)).rows[0]?.s : undefined;
        const migrator = new Migrator({
          db: adapter.db,
          provider: { getMigrations: async () => before },
          migrationTableName: 'gatehouse_migrations',
          migrationLockTableName: 'gatehouse_migrations_lock',
          ...(schema ? { migrationTableSchema: schema } : {}),
        });
        // Retried as migrateToLatest does: Kysely's introspection reads every schema's catalog and
        // fails (3F000) when another test file drops its schema during the read.
        let { error } = await migrator.migrateToLatest();
        for (let attempt = 0; error && attempt < 3; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
          ({ error } = await migrator.migrateToLatest());
        }
        assert.equal(error, undefined);
        const blank = {
          description: '',
          createdAt: 1,
          isProductionMode: false,
          isDevelopmentEnvironment: false,
          ownerTeamId: null,
          logoUrl: null,
          logoFullUrl: null,
          logoDarkModeUrl: null,
          logoFullDarkModeUrl: null,
          config: defaultProjectConfig(),
        };
        await insertProject(adapter.db, { ...blank, id: 'internal', displayName: 'Internal' });
        await insertProject(adapter.db, { ...blank, id: 'b7d3b1a2-5f44-4c1e-9a0d-2f1e3c4b5a69', displayName: 'Old' });

        await migrateToLatest(adapter);

        const defs = await adapter.db
          .selectFrom('permission_edges')
          .select(['project_id', 'parent_id', 'child_id'])
          .orderBy('project_id')
          .orderBy('parent_id')
          .orderBy('child_id')
          .execute();
        const of = (projectId: string, parent: string) =>
          defs.filter((d) => d.project_id === projectId && d.parent_id === parent).map((d) => d.child_id);
        assert.deepEqual(of('internal', 'team_admin'), ['$invite_members', '$read_members', '$remove_members', '$update_team']);
        assert.deepEqual(of('internal', 'team_member'), ['$read_members']);
        assert.equal(of('b7d3b1a2-5f44-4c1e-9a0d-2f1e3c4b5a69', 'team_admin').length, 6);

        // A grant of team_member now implies $read_members through the seeded closure.
        const now = Date.now();
        await adapter.db
          .insertInto('users')
          .values({
            id: 'u1',
            project_id: 'internal',
            display_name: null,
            primary_email: null,
            primary_email_verified: 0,
            primary_email_auth_enabled: 0,
            profile_image_url: null,
            signed_up_at: now,
            last_active_at: now,
            client_metadata: null,
            client_read_only_metadata: null,
            server_metadata: null,
            password_hash: null,
            otp_auth_enabled: 0,
            passkey_auth_enabled: 0,
            totp_secret_base64: null,
            is_anonymous: 0,
            selected_team_id: null,
            restricted_by_admin: 0,
            restricted_by_admin_reason: null,
            restricted_by_admin_private_details: null,
            country_code: null,
            risk_scores: '{}',
          } as never)
          .execute();
        await adapter.db
          .insertInto('teams')
          .values({
            id: 't1',
            project_id: 'internal',
            display_name: 'T',
            profile_image_url: null,
            client_metadata: null,
            client_read_only_metadata: null,
            server_metadata: null,
            created_at: now,
          })
          .execute();
        await adapter.db
          .insertInto('team_members')
          .values({ project_id: 'internal', team_id: 't1', user_id: 'u1', display_name: null, profile_image_url: null, created_at: now })
          .execute();
        await adapter.db
          .insertInto('team_permission_grants')
          .values({ project_id: 'internal', team_id: 't1', user_id: 'u1', permission_id: 'team_member', created_at: now })
          .execute();
        assert.equal(await hasTeamPermission(adapter.db, 'internal', 't1', 'u1', '$read_members'), true);
        assert.equal(await hasTeamPermission(adapter.db, 'internal', 't1', 'u1', '$update_team'), false);
      } finally {
        await adapter.close();
        await database.drop();
      }
    });
  });
}
