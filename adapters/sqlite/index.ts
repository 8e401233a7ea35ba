import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, sql, type DatabaseConnection, type Driver } from 'kysely';
import type { StorageAdapter } from '../../core/storage/adapter.ts';
import type { Database } from '../../core/storage/tables.ts';
import {
  HEALTH_CHECK_DEFAULTS,
  createHealthMonitor,
  isDatabaseDown,
  type HealthCheckOptions,
  type HealthMonitor,
} from '../../core/storage/health-monitor.ts';
import { createSqliteProbe } from './health-probe.ts';
import { fromDriverRows, toDriverParameters } from '../boolean-columns.ts';

export interface SqliteAdapterOptions {
  /** Path of the database file; its folder is created if missing. `:memory:` is allowed for tools. */
  filename: string;
  /**
   * The loaded native addon, for the single executable where `require` cannot load `.node` files
   * (the SEA passes `process.dlopen`'s `module.exports`).
   */
  nativeBinding?: unknown;
  /**
   * How long a statement waits for another process's write lock, in ms; default 5000. It waits
   * in slices of at most {@link BUSY_SLICE_MS} (SQLite's `busy_timeout`, blocking) with the event
   * loop free in between; on expiry, or as soon as the health monitor marks the file down, the
   * request fails with DATABASE_UNAVAILABLE (503) instead of a 500.
   */
  busyTimeoutMs?: number;
  /**
   * The health monitor (core/storage/health-monitor.ts): every `intervalMs` a second connection
   * takes and returns the write lock (adapters/sqlite/health-probe.ts); when it cannot for
   * `deadlineMs`, the file is down: `ping` (readiness) fails and lock waits end at once. Default
   * HEALTH_CHECK_DEFAULTS (250 / 1000 ms); `intervalMs: 0` turns it off. Not for `:memory:`.
   */
  healthCheck?: Partial<HealthCheckOptions>;
}

/**
 * Longest blocking wait for the write lock in one go, in ms: SQLite's busy handler sleeps on the
 * thread, so longer waits are made of such slices with the event loop free in between.
 */
export const BUSY_SLICE_MS = 10;

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
 * True when SQLite cannot serve the statement now rather than the statement being wrong: busy or
 * locked ({@link isSqliteBusy}), a read-only or full file system, an I/O error, a file it cannot
 * open, or the health monitor's down error.
 * @see https://www.sqlite.org/rescode.html
 */
export function isSqliteUnavailable(error: unknown): boolean {
  if (isSqliteBusy(error) || isDatabaseDown(error)) return true;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^SQLITE_(READONLY|IOERR|FULL|CANTOPEN)(_|$)/.test(code);
}

/**
 * Opens a SQLite database with better-sqlite3 in WAL mode, foreign keys on, a busy timeout
 * (default 5 s; a lock held longer, or held for the health monitor's whole deadline, answers
 * DATABASE_UNAVAILABLE) and
 * `synchronous = FULL` (a committed transaction survives a power loss, not only a process crash).
 */
export function createSqliteAdapter(options: SqliteAdapterOptions): StorageAdapter {
  if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
  const database = new BetterSqlite3(options.filename, options.nativeBinding ? { nativeBinding: options.nativeBinding as string } : {});
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? SQLITE_BUSY_TIMEOUT_DEFAULT_MS));
  database.pragma(`busy_timeout = ${Math.min(busyTimeoutMs, BUSY_SLICE_MS)}`);
  database.pragma('synchronous = FULL');
  cachePreparedStatements(database);
  const health = { ...HEALTH_CHECK_DEFAULTS, ...options.healthCheck };
  const monitor =
    health.intervalMs > 0 && options.filename !== ':memory:'
      ? createHealthMonitor(
          createSqliteProbe(options.filename, {
            nativeBinding: options.nativeBinding,
            ownTransaction: () => database.inTransaction,
            isBusy: isSqliteBusy,
          }),
          health,
        )
      : undefined;
  const db = new Kysely<Database>({ dialect: new ImmediateTransactionsSqliteDialect({ database }, busyTimeoutMs, monitor) });
  return {
    dialect: 'sqlite',
    db,
    isUniqueViolation: (error) =>
      typeof error === 'object' &&
      error !== null &&
      ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes((error as { code?: string }).code ?? ''),
    isUnavailable: isSqliteUnavailable,
    // Readiness: down while the monitor says so; otherwise a read, which a held write lock does
    // not block (WAL), released early if the monitor marks the file down meanwhile.
    ping: async () => {
      monitor?.assertUp();
      const read = sql`select 1`.execute(db);
      await (monitor ? monitor.race(read) : read);
    },
    close: async () => {
      monitor?.stop();
      await db.destroy();
    },
  };
}

/**
 * Kysely's SQLite dialect with flags converted both ways (adapters/boolean-columns.ts) and every
 * transaction begun `IMMEDIATE` (the write lock taken at BEGIN,
 * waiting up to `busy_timeout` for it) instead of Kysely's plain deferred `BEGIN`. With several
 * processes on one file (`--workers`), a deferred transaction that reads and then writes fails at
 * once with SQLITE_BUSY when another process committed since its read began (WAL cannot upgrade
 * a stale read snapshot, and the busy handler is not called), which answered sign-ups under load
 * with 503s. In one process nothing changes: Kysely runs one transaction at a time on the
 * single connection.
 *
 * A statement that finds the lock taken waits for it in slices of {@link BUSY_SLICE_MS}
 * (`busy_timeout`) with the event loop free in between, up to `busyTimeoutMs` in all, and stops
 * waiting as soon as the health monitor marks the file down. Retrying is safe: a statement that
 * failed with SQLITE_BUSY did nothing, and inside a transaction only that statement is undone.
 * @see https://www.sqlite.org/lang_transaction.html
 * @see https://www.sqlite.org/rescode.html#busy
 */
class ImmediateTransactionsSqliteDialect extends SqliteDialect {
  readonly #busyTimeoutMs: number;
  readonly #monitor: HealthMonitor | undefined;
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0], busyTimeoutMs: number, monitor: HealthMonitor | undefined) {
    super(config);
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#monitor = monitor;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    const acquire = driver.acquireConnection.bind(driver);
    const waiting = new WeakSet<DatabaseConnection>();
    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (!waiting.has(connection)) {
        waiting.add(connection);
        const execute = connection.executeQuery.bind(connection);
        connection.executeQuery = (async (compiled: CompiledQuery) => {
          const query = { ...compiled, parameters: toDriverParameters(compiled.parameters) };
          const started = performance.now();
          for (;;) {
            try {
              const result = await execute(query);
              fromDriverRows(result.rows);
              return result;
            } catch (error) {
              if (!isSqliteBusy(error) || performance.now() - started >= this.#busyTimeoutMs || this.#monitor?.up === false) throw error;
              await new Promise((resolve) => setTimeout(resolve, 1));
            }
          }
        }) as DatabaseConnection['executeQuery'];
      }
      return connection;
    };
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
