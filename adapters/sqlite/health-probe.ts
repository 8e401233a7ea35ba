import BetterSqlite3 from 'better-sqlite3';
import type { HealthProbe } from '../../core/storage/health-monitor.ts';

/**
 * The health monitor's probe for SQLite: on a connection of its own to the same file, with no
 * busy wait, `BEGIN IMMEDIATE` then `ROLLBACK`, which takes and gives back the write lock without
 * writing. It fails at once (SQLITE_BUSY, SQLITE_READONLY, an I/O error) when another process
 * holds the lock or the file cannot be written; the monitor retries it until its deadline, so
 * only a lock held (or a fault lasting) for the whole deadline marks the database down. Never
 * blocks the event loop: the attempt either gets the lock or fails immediately. `ownTransaction`
 * tells whether the process's main connection is inside a transaction (then it holds the lock).
 * @see https://www.sqlite.org/lang_transaction.html
 */
export function createSqliteProbe(filename: string, nativeBinding: unknown, ownTransaction: () => boolean): HealthProbe {
  let connection: BetterSqlite3.Database | undefined;
  return {
    async attempt() {
      connection ??= new BetterSqlite3(filename, { fileMustExist: true, ...(nativeBinding ? { nativeBinding: nativeBinding as string } : {}) });
      connection.pragma('busy_timeout = 0');
      // While this process's own connection is inside a transaction it holds the lock itself
      // (and is making progress): a read is all the probe can check.
      if (ownTransaction()) {
        connection.prepare('select 1').get();
        return;
      }
      connection.exec('begin immediate');
      connection.exec('rollback');
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
