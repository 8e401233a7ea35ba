import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, sql, type Driver } from 'kysely';
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
  /**
   * How long a write waits for another process's write lock, in ms (SQLite's `busy_timeout`);
   * default 5000. The wait blocks this process's event loop, so keep it short; on expiry the
   * request fails with DATABASE_UNAVAILABLE (503) instead of a 500.
   */
  busyTimeoutMs?: number;
}

/** Default of SqliteAdapterOptions.busyTimeoutMs, in ms. */
export const SQLITE_BUSY_TIMEOUT_DEFAULT_MS = 5000;

/**
 * True when `error` is SQLite's "database is busy / locked" (another connection holds the lock
 * past the busy timeout, or a WAL snapshot went stale): a retryable state, not a bad query.
 * @see https://www.sqlite.org/rescode.html#busy
 */
export function isSqliteBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/**
 * Opens a SQLite database with better-sqlite3 in WAL mode, foreign keys on, a busy timeout
 * (default 5 s; a lock held longer answers DATABASE_UNAVAILABLE) and
 * `synchronous = FULL` (a committed transaction survives a power loss, not only a process crash).
 */
export function createSqliteAdapter(options: SqliteAdapterOptions): StorageAdapter {
  if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
  const database = new BetterSqlite3(options.filename, options.nativeBinding ? { nativeBinding: options.nativeBinding as string } : {});
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? SQLITE_BUSY_TIMEOUT_DEFAULT_MS))}`);
  database.pragma('synchronous = FULL');
  cachePreparedStatements(database);
  const db = new Kysely<Database>({ dialect: new ImmediateTransactionsSqliteDialect({ database }) });
  return {
    dialect: 'sqlite',
    db,
    isUniqueViolation: (error) =>
      typeof error === 'object' && error !== null &&
      ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes((error as { code?: string }).code ?? ''),
    isUnavailable: isSqliteBusy,
    ping: async () => { await sql`select 1`.execute(db); },
    close: () => db.destroy(),
  };
}

/**
 * Kysely's SQLite dialect with every transaction begun `IMMEDIATE` (the write lock taken at BEGIN,
 * waiting up to `busy_timeout` for it) instead of Kysely's plain deferred `BEGIN`. With several
 * processes on one file (`--workers`), a deferred transaction that reads and then writes fails at
 * once with SQLITE_BUSY when another process committed since its read began (WAL cannot upgrade
 * a stale read snapshot, and the busy handler is not called), which answered sign-ups under load
 * with 503s. In one process nothing changes: Kysely runs one transaction at a time on the
 * single connection.
 * @see https://www.sqlite.org/lang_transaction.html
 */
class ImmediateTransactionsSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => { await connection.executeQuery(CompiledQuery.raw('begin immediate')); };
    return driver;
  }
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
