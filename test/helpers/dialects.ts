import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Dialect, StorageAdapter } from '../../core/index.ts';
import { createSqliteAdapter } from '../../adapters/sqlite/index.ts';
import { createPostgresAdapter } from '../../adapters/postgres/index.ts';

/**
 * Dialects to test, from TEST_DIALECTS (default `sqlite`). CI sets `sqlite,postgres` and
 * TEST_POSTGRES_URL; a listed dialect that cannot be reached fails the run instead of skipping.
 */
export function testDialects(): Dialect[] {
  const list = (process.env.TEST_DIALECTS ?? 'sqlite').split(',').map((s) => s.trim()).filter(Boolean);
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
