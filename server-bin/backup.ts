import { chmodSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** Result of a backup: the number of database pages copied. */
export interface BackupResult {
  pages: number;
}

/**
 * Copies a live SQLite database to `destination` with SQLite's online backup API (through
 * better-sqlite3's `backup`): other connections keep reading and writing, and the copy is a
 * consistent snapshot including committed WAL content. Writes `<destination>.partial` first and
 * renames it, so a failed backup leaves no half file; the copy passes `PRAGMA integrity_check`
 * before the rename and is readable by its owner only (mode 0600: it holds password hashes).
 *
 * @throws Error when the source cannot be opened, the copy fails, or the check fails.
 */
export async function backupSqlite(source: string, destination: string): Promise<BackupResult> {
  mkdirSync(dirname(destination), { recursive: true });
  const partial = `${destination}.partial`;
  rmSync(partial, { force: true });
  const db = new BetterSqlite3(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(partial);
    const copy = new BetterSqlite3(partial);
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`The backup failed its integrity check: ${String(check)}`);
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    chmodSync(partial, 0o600);
    renameSync(partial, destination);
    return { pages: totalPages };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}
