import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { StorageAdapter } from '../../core/storage/adapter.ts';
import type { Database } from '../../core/storage/tables.ts';

export interface SqliteAdapterOptions {
  /** Path of the database file; its folder is created if missing. `:memory:` is allowed for tools. */
  filename: string;
  /**
   * The loaded native addon, for the single executable where `require` cannot load `.node` files
   * (design NOTES: SEA passes `process.dlopen`'s `module.exports`).
   */
  nativeBinding?: unknown;
}

/**
 * Opens a SQLite database with better-sqlite3 in WAL mode, foreign keys on, a 5 s busy timeout and
 * `synchronous = FULL` (a committed transaction survives a power loss, not only a process crash).
 */
export function createSqliteAdapter(options: SqliteAdapterOptions): StorageAdapter {
  if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
  const database = new BetterSqlite3(options.filename, options.nativeBinding ? { nativeBinding: options.nativeBinding as string } : {});
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = FULL');
  cachePreparedStatements(database);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    dialect: 'sqlite',
    db,
    isUniqueViolation: (error) =>
      typeof error === 'object' && error !== null &&
      ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes((error as { code?: string }).code ?? ''),
    ping: async () => { await sql`select 1`.execute(db); },
    close: () => db.destroy(),
  };
}

/**
 * Reuses prepared statements by SQL text (bounded, least recently used out): Kysely prepares
 * every query anew, which was the largest single cost of a request in the benchmark. Safe because
 * Kysely runs one query at a time on the connection and `all`/`run` finish synchronously.
 */
function cachePreparedStatements(database: BetterSqlite3.Database, max = 500): void {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, BetterSqlite3.Statement>();
  database.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = prepare(source);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, statement);
    return statement;
  }) as typeof database.prepare;
}
