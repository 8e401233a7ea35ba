import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Dialect, StorageAdapter } from '../../core/index.ts';
import { migrateToLatest } from '../../core/storage/adapter.ts';
import { createSqliteAdapter } from '../../adapters/sqlite/index.ts';
import { createPostgresAdapter } from '../../adapters/postgres/index.ts';
import { reusableDatabases } from './postgres-reuse.ts';

/**
 * Dialects to test, from TEST_DIALECTS (default `sqlite`). CI sets `sqlite,postgres` and
 * TEST_POSTGRES_URL; a listed dialect that cannot be reached fails the run instead of skipping.
 */
export function testDialects(): Dialect[] {
  const list = (process.env.TEST_DIALECTS ?? 'sqlite')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const d of list) if (d !== 'sqlite' && d !== 'postgres') throw new Error(`Unknown dialect in TEST_DIALECTS: ${d}`);
  return list as Dialect[];
}

export function postgresUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** A fresh, empty database of `dialect`: a SQLite file in a temp dir, or a new PostgreSQL schema. */
export interface TestDatabase {
  dialect: Dialect;
  /** Opens an adapter on this database (may be called more than once, e.g. to test restarts). */
  open(): StorageAdapter;
  /** For starting a separate server process on the same database. */
  databaseUrl: string;
  /** Removes the database. */
  drop(): Promise<void>;
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
    const filename = join(dir, 'gatehouse.db');
    return {
      dialect,
      open: () => createSqliteAdapter({ filename }),
      databaseUrl: `sqlite:${filename}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const url = postgresUrl();
  const client = new pg.Client({ connectionString: url });
  await client.connect().catch((error: Error) => {
    throw new Error(`PostgreSQL at ${url} is unreachable (${error.message}). Start it or remove postgres from TEST_DIALECTS.`);
  });
  // pg_trgm (migration 0017) in `public`, shared by every test schema: were it created inside the
  // first test's schema, dropping that schema would drop it and, by cascade, the search indexes
  // of every other test schema (deadlocking their running queries).
  await client.query('create extension if not exists pg_trgm with schema public').catch((error: { code?: string }) => {
    if (error.code !== '23505') throw error;
  });
  await client.query(`create schema "${schema}"`);
  await client.end();
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dialect,
    open: () => createPostgresAdapter({ connectionString: url, schema, max: 5 }),
    databaseUrl: withSchema.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema "${schema}" cascade`);
      await c.end();
    },
  };
}

/**
 * What a migrated template depends on: the migrations and both adapters' sources. A change to
 * any of them names a new template, so a stale one is never used.
 */
function templateKey(): string {
  const root = join(import.meta.dirname, '..', '..');
  const hash = createHash('sha1');
  for (const dir of ['core/storage/migrations', 'adapters/sqlite', 'adapters/postgres']) {
    for (const name of readdirSync(join(root, dir))
      .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
      .sort()) {
      hash
        .update(`${dir}/${name}\0`)
        .update(readFileSync(join(root, dir, name)))
        .update('\0');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

let sqliteTemplate: string | undefined;
let postgresTemplate: Promise<string> | undefined;
let reusable: Promise<ReturnType<typeof reusableDatabases>> | undefined;

/** A SQLite file migrated to the latest schema, built once per key (atomically renamed into place). */
async function sqliteTemplateFile(): Promise<string> {
  if (sqliteTemplate && existsSync(sqliteTemplate)) return sqliteTemplate;
  const path = join(tmpdir(), `gatehouse-test-template-${templateKey()}.db`);
  if (!existsSync(path)) {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-template-'));
    const adapter = createSqliteAdapter({ filename: join(dir, 'template.db') });
    await migrateToLatest(adapter);
    await adapter.close(); // checkpoints the WAL into the file
    renameSync(join(dir, 'template.db'), path);
    rmSync(dir, { recursive: true, force: true });
  }
  return (sqliteTemplate = path);
}

/**
 * The name of a PostgreSQL database migrated to the latest schema (in schema `gatehouse`, with
 * pg_trgm in `public`), built once per key under an advisory lock, for CREATE DATABASE … TEMPLATE.
 */
function postgresTemplateDatabase(): Promise<string> {
  return (postgresTemplate ??= (async () => {
    const name = `gatehouse_test_tpl_${templateKey()}`;
    const client = new pg.Client({ connectionString: postgresUrl() });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock(7301945)');
      const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount === 0) {
        const building = `${name}_building`;
        await client.query(`drop database if exists "${building}" with (force)`);
        await client.query(`create database "${building}"`);
        const url = new URL(postgresUrl());
        url.pathname = `/${building}`;
        const setup = new pg.Client({ connectionString: url.toString() });
        await setup.connect();
        await setup.query('create extension if not exists pg_trgm with schema public');
        await setup.end();
        const adapter = createPostgresAdapter({ connectionString: url.toString(), schema: 'gatehouse', max: 2 });
        await migrateToLatest(adapter);
        await adapter.close();
        await client.query(`alter database "${building}" rename to "${name}"`);
      }
      return name;
    } finally {
      await client.query('select pg_advisory_unlock(7301945)').catch(() => {});
      await client.end();
    }
  })().catch((error: unknown) => {
    postgresTemplate = undefined;
    throw error;
  }));
}

/**
 * A fresh database of `dialect` already migrated to the latest schema, copied from a template
 * migrated once (a file copy on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL, where a
 * process's released databases are emptied and reused: test/helpers/postgres-reuse.ts) instead of
 * running every migration for each test server or core. Tests of migrations themselves use
 * {@link createTestDatabase} (empty). `TEST_DB_TEMPLATES=0` turns the templates off (each
 * database then migrates when the core opens it), to compare or to rule them out.
 */
export async function createMigratedTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (process.env.TEST_DB_TEMPLATES === '0') return createTestDatabase(dialect);
  if (dialect === 'sqlite') {
    const template = await sqliteTemplateFile();
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
    const filename = join(dir, 'gatehouse.db');
    copyFileSync(template, filename);
    return {
      dialect,
      open: () => createSqliteAdapter({ filename }),
      databaseUrl: `sqlite:${filename}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  reusable ??= postgresTemplateDatabase()
    .then((template) => reusableDatabases(postgresUrl(), template))
    .catch((error: unknown) => {
      reusable = undefined;
      throw error;
    });
  const databases = await reusable;
  const name = await databases.take();
  const url = new URL(postgresUrl());
  url.pathname = `/${name}`;
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', '-c search_path=gatehouse');
  return {
    dialect,
    open: () => createPostgresAdapter({ connectionString: url.toString(), schema: 'gatehouse', max: 5 }),
    databaseUrl: withSchema.toString(),
    drop: () => databases.release(name),
  };
}
