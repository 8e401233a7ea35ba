import { Migrator, sql, type Kysely } from 'kysely';
import type { Database } from './tables.ts';
import { migrations } from './migrations/index.ts';

/** The SQL dialects Gatehouse stores in. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * A storage adapter: a Kysely instance over one database, plus the few facts that differ by
 * dialect. `adapters/sqlite` and `adapters/postgres` implement it.
 */
export interface StorageAdapter {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  /**
   * The PostgreSQL schema holding the tables (undefined for SQLite). The migrator names it
   * explicitly: Kysely's table-existence check otherwise sees same-named tables in other schemas.
   */
  readonly schema?: string;
  /** True when `error` is a unique-constraint violation raised by this dialect's driver. */
  isUniqueViolation(error: unknown): boolean;
  /**
   * True when `error` means the database cannot serve the request now (unreachable, stalled,
   * connection reset or terminated, a timeout, SQLite busy) rather than a fault of the query: the
   * core answers DATABASE_UNAVAILABLE (503) for these.
   */
  isUnavailable(error: unknown): boolean;
  /** Cheap round trip for readiness checks; throws when the database is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Brings the schema to the latest migration. Safe to call from many processes at once: Kysely's
 * migrator takes a database lock (an advisory lock on PostgreSQL).
 *
 * @throws Error naming the failed migration.
 */
export async function migrateToLatest(adapter: StorageAdapter): Promise<void> {
  // Name the schema explicitly: Kysely's table-existence check otherwise sees same-named tables in
  // other schemas of the database. The schema is whatever the connection resolves (search_path),
  // so a URL with `options=-c search_path=…` works too.
  const schema =
    adapter.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(adapter.db)).rows[0]?.s : undefined;
  const migrator = new Migrator({
    db: adapter.db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'gatehouse_migrations',
    migrationLockTableName: 'gatehouse_migrations_lock',
    // Parallel work reserves migration numbers up front and lands in any order (0007 may ship
    // before 0006), so a database that already ran a later number must still accept an earlier one.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  let { error, results } = await migrator.migrateToLatest();
  // Retry a failed attempt a few times. SQLite has no migration lock across connections: when
  // another process migrated the same file at the same moment, our attempt fails on "already
  // exists", and a second attempt sees its work. On PostgreSQL, Kysely's introspection reads the
  // catalog of every schema, and fails when another schema is dropped during the read.
  for (let attempt = 0; error && attempt < 3; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
