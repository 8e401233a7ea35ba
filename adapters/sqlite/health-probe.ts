import BetterSqlite3 from 'better-sqlite3';
import type { HealthProbe } from '../../core/storage/health-monitor.ts';

/** What the SQLite probe needs from its adapter. */
export interface SqliteProbeOptions {
  /** better-sqlite3's loaded addon in the single executable (SqliteAdapterOptions.nativeBinding). */
  nativeBinding?: unknown;
  /** True while the process's own connection is inside a transaction (it then holds the lock). */
  ownTransaction(): boolean;
  /** The adapter's test for SQLITE_BUSY / SQLITE_LOCKED. */
  isBusy(error: unknown): boolean;
}

/**
 * The health monitor's probe for SQLite: on a connection of its own to the same file, with no
 * busy wait, `BEGIN IMMEDIATE` then `ROLLBACK`, which takes and gives back the write lock without
 * writing. It fails at once (SQLITE_BUSY, SQLITE_READONLY, an I/O error) when the lock is held or
 * the file cannot be written; the monitor retries it until its deadline. A busy lock counts as
 * healthy when a commit happened since the previous attempt (`PRAGMA data_version` changed: any
 * other connection, this process's or another's, committed), so writers saturating the lock
 * under load are never taken for a stall: only a lock held with no commit for the whole deadline,
 * or a file that cannot be written, marks the database down. While the process's own connection
 * is inside a transaction, a read is all the probe checks. Never blocks the event loop.
 * @see https://www.sqlite.org/lang_transaction.html
 * @see https://www.sqlite.org/pragma.html#pragma_data_version
 */
export function createSqliteProbe(filename: string, options: SqliteProbeOptions): HealthProbe {
  let connection: BetterSqlite3.Database | undefined;
  let lastVersion: unknown;
  return {
    async attempt() {
      connection ??= new BetterSqlite3(filename, {
        fileMustExist: true,
        ...(options.nativeBinding ? { nativeBinding: options.nativeBinding as string } : {}),
      });
      connection.pragma('busy_timeout = 0');
      const version = connection.pragma('data_version', { simple: true });
      const committedSinceLastAttempt = lastVersion !== undefined && version !== lastVersion;
      lastVersion = version;
      if (options.ownTransaction()) return;
      try {
        connection.exec('begin immediate');
        connection.exec('rollback');
      } catch (error) {
        if (!(committedSinceLastAttempt && options.isBusy(error))) throw error;
      }
    },
    abandon() {
      if (connection?.inTransaction) connection.exec('rollback');
    },
    close() {
      connection?.close();
      connection = undefined;
    },
  };
}
