import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, type StorageAdapter } from '../core/storage/adapter.ts';
import { migrations } from '../core/storage/migrations/index.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../test/helpers/dialects.ts';

/** Every `table.column` of the adapter's own schema, sorted (no introspection of other schemas). */
async function schemaColumns(adapter: StorageAdapter): Promise<string[]> {
  const rows =
    adapter.dialect === 'sqlite'
      ? (
          await sql<{
            c: string;
          }>`select m.name || '.' || p.name as c from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'`.execute(
            adapter.db,
          )
        ).rows
      : (
          await sql<{
            c: string;
          }>`select table_name || '.' || column_name as c from information_schema.columns where table_schema = current_schema()`.execute(
            adapter.db,
          )
        ).rows;
  return rows.map((r) => r.c).sort();
}

/** The shared adapter suite: the same expectations on every dialect. */
for (const dialect of testDialects()) {
  describe(`storage adapter [${dialect}]`, () => {
    let database: TestDatabase;
    let adapter: StorageAdapter;

    before(async () => {
      database = await createTestDatabase(dialect);
      adapter = database.open();
    });
    after(async () => {
      await adapter.close();
      await database.drop();
    });

    it('migrates an empty database, and migrating again (even concurrently) changes nothing', async () => {
      const second = database.open();
      await Promise.all([migrateToLatest(adapter), migrateToLatest(second)]);
      await second.close();
      const applied = async () =>
        (await sql<{ name: string }>`select name from gatehouse_migrations order by name`.execute(adapter.db)).rows.map((r) => r.name);
      const before = { applied: await applied(), columns: await schemaColumns(adapter) };
      assert.deepEqual(before.applied, Object.keys(migrations).sort(), 'every migration applied exactly once');
      assert.ok(before.columns.includes('users.primary_email'), 'the schema has the foundation tables');
      await migrateToLatest(adapter);
      assert.deepEqual({ applied: await applied(), columns: await schemaColumns(adapter) }, before);
    });

    it('answers ping', async () => {
      await adapter.ping();
    });

    it('round-trips epoch-millisecond integers as numbers and JSON as text', async () => {
      const big = 4_102_444_800_000; // year 2100, beyond int32
      await adapter.db
        .insertInto('projects')
        .values({
          id: 'p-roundtrip',
          display_name: 'R',
          description: '',
          created_at: big,
          is_production_mode: false,
          is_development_environment: false,
          owner_team_id: null,
          logo_url: null,
          logo_full_url: null,
          logo_dark_mode_url: null,
          logo_full_dark_mode_url: null,
          config: JSON.stringify({ a: [1, 'ü'] }),
        })
        .execute();
      const row = await adapter.db.selectFrom('projects').selectAll().where('id', '=', 'p-roundtrip').executeTakeFirstOrThrow();
      assert.equal(row.created_at, big);
      assert.equal(typeof row.created_at, 'number');
      assert.deepEqual(JSON.parse(row.config), { a: [1, 'ü'] });
    });

    it('reads and writes flags as booleans, stored as 0/1 integers (adapters/boolean-columns.ts)', async () => {
      await adapter.db
        .insertInto('projects')
        .values({
          id: 'p-flags',
          display_name: 'B',
          description: '',
          created_at: 1,
          is_production_mode: true,
          is_development_environment: false,
          owner_team_id: null,
          logo_url: null,
          logo_full_url: null,
          logo_dark_mode_url: null,
          logo_full_dark_mode_url: null,
          config: '{}',
        })
        .execute();
      const row = await adapter.db
        .selectFrom('projects')
        .select(['is_production_mode', 'is_development_environment'])
        .where('id', '=', 'p-flags')
        .where('is_development_environment', '=', false)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { is_production_mode: true, is_development_environment: false });
      const stored = await sql<{
        p: number;
        d: number;
      }>`select is_production_mode + 0 as p, is_development_environment + 0 as d from projects where id = ${'p-flags'}`.execute(adapter.db);
      assert.deepEqual(
        stored.rows.map((r) => [Number(r.p), Number(r.d)]),
        [[1, 0]],
        'stored as 0/1 integers',
      );
      const updated = await adapter.db
        .updateTable('projects')
        .set({ is_production_mode: false })
        .where('id', '=', 'p-flags')
        .returning(['is_production_mode'])
        .executeTakeFirstOrThrow();
      assert.deepEqual(updated, { is_production_mode: false }, 'RETURNING rows are converted too');
    });

    it('reports unique violations through isUniqueViolation', async () => {
      const values = { key: 'dup', value: 'x' };
      await adapter.db.insertInto('server_settings').values(values).execute();
      let caught: unknown;
      try {
        await adapter.db.insertInto('server_settings').values(values).execute();
      } catch (error) {
        caught = error;
      }
      assert.ok(caught, 'second insert must fail');
      assert.equal(adapter.isUniqueViolation(caught), true);
      assert.equal(adapter.isUniqueViolation(new Error('other')), false);
    });

    it('rolls a failed transaction back completely', async () => {
      await assert.rejects(
        adapter.db.transaction().execute(async (trx) => {
          await trx.insertInto('server_settings').values({ key: 'tx-1', value: 'a' }).execute();
          throw new Error('abort');
        }),
        /abort/,
      );
      const row = await adapter.db.selectFrom('server_settings').select('key').where('key', '=', 'tx-1').executeTakeFirst();
      assert.equal(row, undefined);
    });

    it('enforces foreign keys with cascading deletes', async () => {
      await adapter.db
        .insertInto('projects')
        .values({
          id: 'p-fk',
          display_name: 'F',
          description: '',
          created_at: 1,
          is_production_mode: false,
          is_development_environment: false,
          owner_team_id: null,
          logo_url: null,
          logo_full_url: null,
          logo_dark_mode_url: null,
          logo_full_dark_mode_url: null,
          config: '{}',
        })
        .execute();
      await adapter.db
        .insertInto('users')
        .values({
          id: 'u-fk',
          project_id: 'p-fk',
          display_name: null,
          primary_email: null,
          primary_email_verified: false,
          primary_email_auth_enabled: false,
          profile_image_url: null,
          signed_up_at: 1,
          last_active_at: null,
          client_metadata: null,
          client_read_only_metadata: null,
          server_metadata: null,
          password_hash: null,
          otp_auth_enabled: false,
          passkey_auth_enabled: false,
          totp_secret_base64: null,
          is_anonymous: false,
          selected_team_id: null,
          restricted_by_admin: false,
          restricted_by_admin_reason: null,
          restricted_by_admin_private_details: null,
          country_code: null,
          risk_scores: '{}',
        })
        .execute();
      await assert.rejects(
        adapter.db
          .insertInto('refresh_tokens')
          .values({
            id: 'r-fk',
            project_id: 'p-fk',
            user_id: 'missing-user',
            token_hash: 'h',
            created_at: 1,
            last_used_at: 1,
            expires_at: null,
            is_impersonation: false,
          })
          .execute(),
      );
      await adapter.db.deleteFrom('projects').where('id', '=', 'p-fk').execute();
      const user = await adapter.db.selectFrom('users').select('id').where('id', '=', 'u-fk').executeTakeFirst();
      assert.equal(user, undefined);
    });
  });
}
