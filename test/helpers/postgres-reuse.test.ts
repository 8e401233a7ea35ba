import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createMigratedTestDatabase, postgresUrl, testDialects, type TestDatabase } from './dialects.ts';

/** The database a test database's URL names. */
const nameOf = (database: TestDatabase) => new URL(database.databaseUrl).pathname.slice(1);

async function onServer<T>(database: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(postgresUrl());
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

const oidOf = (name: string) =>
  onServer(
    'postgres',
    async (c) => (await c.query<{ oid: string }>('select oid from pg_database where datname = $1', [name])).rows[0]?.oid,
  );
const databaseExists = async (oid: string) =>
  onServer('postgres', async (c) => (await c.query('select 1 from pg_database where oid = $1', [oid])).rowCount === 1);

/** Every user table of `name` with its row count. */
const rowCounts = (name: string) =>
  onServer(name, async (c) => {
    const tables = (
      await c.query<{ t: string }>(
        "select format('%I.%I', schemaname, tablename) as t from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1",
      )
    ).rows.map((r) => r.t);
    const counts = (
      await c.query<{ t: string; n: string }>(tables.map((t) => `select '${t}' as t, count(*) as n from ${t}`).join(' union all '))
    ).rows;
    return Object.fromEntries(counts.map((r) => [r.t, Number(r.n)]));
  });

const insertProject = (name: string, id: string) =>
  onServer(name, (c) =>
    c.query("insert into gatehouse.projects (id, display_name, created_at, config) values ($1, 'Reuse', 0, '{}')", [id]),
  );

/**
 * test/helpers/postgres-reuse.ts: a released PostgreSQL test database is handed to the process's
 * next test only as the template left it, under a name no earlier client can reach.
 */
if (testDialects().includes('postgres')) {
  describe('PostgreSQL test databases reused within a process [postgres]', () => {
    it("hands a released database to the next test emptied, under a new name, with the template's migrations record", async () => {
      const first = await createMigratedTestDatabase('postgres');
      const firstName = nameOf(first);
      const oid = await oidOf(firstName);
      const before = await rowCounts(firstName);
      assert.ok(before['gatehouse.gatehouse_migrations']! > 0, 'the template records its migrations');
      await insertProject(firstName, 'p-reuse');
      assert.equal((await rowCounts(firstName))['gatehouse.projects'], 1);
      await first.drop();
      const second = await createMigratedTestDatabase('postgres');
      try {
        assert.equal(await oidOf(nameOf(second)), oid, 'the same database, reused');
        assert.notEqual(nameOf(second), firstName);
        assert.deepEqual(await rowCounts(nameOf(second)), before);
      } finally {
        await second.drop();
      }
    });

    it('ends the sessions a test left open; they cannot reconnect under the old name', async () => {
      const first = await createMigratedTestDatabase('postgres');
      const left = new pg.Client({ connectionString: first.databaseUrl });
      await left.connect();
      left.on('error', () => {});
      await left.query('select 1');
      await first.drop();
      await assert.rejects(left.query('select 1'), 'the session was ended');
      const again = new pg.Client({ connectionString: first.databaseUrl });
      await assert.rejects(again.connect(), (error: { code?: string }) => error.code === '3D000');
      await again.end().catch(() => {});
    });

    it('drops, and does not reuse, a database whose schema a test changed', async () => {
      const first = await createMigratedTestDatabase('postgres');
      const oid = (await oidOf(nameOf(first)))!;
      await onServer(nameOf(first), (c) => c.query('alter table gatehouse.projects add column leftover text'));
      await first.drop();
      assert.equal(await databaseExists(oid), false);
      const second = await createMigratedTestDatabase('postgres');
      try {
        assert.notEqual(await oidOf(nameOf(second)), oid);
        await insertProject(nameOf(second), 'p-fresh');
      } finally {
        await second.drop();
      }
    });

    it('drops a database whose migrations record a test changed, rather than restoring it', async () => {
      const first = await createMigratedTestDatabase('postgres');
      const oid = (await oidOf(nameOf(first)))!;
      await onServer(nameOf(first), (c) =>
        c.query('delete from gatehouse.gatehouse_migrations where name = (select max(name) from gatehouse.gatehouse_migrations)'),
      );
      await first.drop();
      assert.equal(await databaseExists(oid), false);
    });
  });
}
