import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { createPostgresAdapter } from './postgres/index.ts';
import { migrateToLatest } from '../core/storage/adapter.ts';
import { postgresUrl, testDialects } from '../test/helpers/dialects.ts';

/**
 * Migration 0017 builds the users search indexes on pg_trgm's operator classes. The extension must
 * not live inside one Gatehouse schema: dropping that schema would drop it and, by cascade, the
 * search indexes of every other schema of the database (locking their tables while their queries
 * run: the deadlocks CI saw when test schemas were dropped). Run in a database of its own, where
 * the extension is not installed yet, so that the migration's choice is what is tested.
 */
if (testDialects().includes('postgres')) {
  describe('pg_trgm outlives any one schema [postgres]', () => {
    it("installs pg_trgm in public, so dropping a migrated schema keeps the other schemas' search indexes", async () => {
      const name = `g_trgm_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: postgresUrl() });
      await admin.connect();
      await admin.query(`create database "${name}"`);
      const url = new URL(postgresUrl());
      url.pathname = `/${name}`;
      const a = createPostgresAdapter({ connectionString: url.toString(), schema: 'gatehouse_a', max: 2 });
      const b = createPostgresAdapter({ connectionString: url.toString(), schema: 'gatehouse_b', max: 2 });
      try {
        await migrateToLatest(a);
        await migrateToLatest(b);
        const home = (
          await sql<{
            schema: string;
          }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(b.db)
        ).rows[0]?.schema;
        assert.equal(home, 'public');
        await sql`drop schema gatehouse_a cascade`.execute(a.db);
        const indexes = (
          await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where schemaname = 'gatehouse_b' and indexname like '%trgm' order by 1`.execute(b.db)
        ).rows.map((r) => r.name);
        assert.deepEqual(indexes, ['users_display_name_trgm', 'users_email_trgm', 'users_id_trgm']);
      } finally {
        await a.close();
        await b.close();
        await admin.query(`drop database "${name}"`);
        await admin.end();
      }
    });
  });
}
