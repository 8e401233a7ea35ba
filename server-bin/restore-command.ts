import { chmodSync, copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { ConfigError } from './config.ts';
import { settingDefault } from './settings.ts';

export const RESTORE_USAGE = `Usage: gatehouse restore <backup file> [options]

Replaces the SQLite database with a backup made by \`gatehouse backup\`. Stop the server first:
a database in use is refused. The database it replaces is kept beside it as
gatehouse.db.before-restore-<time>, so a restore can be undone.

Options:
  --data-dir <path>     GATEHOUSE_DATA_DIR      data folder (default ./gatehouse-data)
  --database-url <url>  GATEHOUSE_DATABASE_URL  sqlite:<path> (postgres:// is refused; use pg_restore)
  -h, --help            show this help
`;

interface RestoreCommand {
  help: boolean;
  /** Absolute path of the backup to restore. */
  backup: string;
  /** Absolute path of the database file to replace (or create). */
  database: string;
}

/**
 * Parses `gatehouse restore` arguments (flags win over the environment).
 *
 * @throws ConfigError when the backup is missing, or the database is PostgreSQL.
 */
export function resolveRestoreCommand(argv: string[], env: NodeJS.ProcessEnv): RestoreCommand {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see gatehouse restore --help)`);
  }
  if (values.help === true) return { help: true, backup: '', database: '' };
  if (positionals.length !== 1)
    throw new ConfigError('Give exactly one backup file: gatehouse restore <file> (see gatehouse restore --help)');
  const backup = resolve(positionals[0]!);
  if (!existsSync(backup)) throw new ConfigError(`No backup at ${backup}.`);
  const databaseUrl = (values['database-url'] as string | undefined) ?? (env.GATEHOUSE_DATABASE_URL || undefined);
  let database: string;
  if (!databaseUrl) {
    const dataDir = (values['data-dir'] as string | undefined) ?? (env.GATEHOUSE_DATA_DIR || settingDefault('data-dir'));
    database = join(resolve(dataDir), 'gatehouse.db');
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('gatehouse restore restores SQLite backups; for PostgreSQL use pg_restore.');
  } else {
    const m = /^(?:sqlite|file):(.+)$/.exec(databaseUrl);
    if (!m) throw new ConfigError(`Unsupported database URL "${databaseUrl}": use sqlite:<path>.`);
    database = resolve(m[1]!);
  }
  if (backup === database) throw new ConfigError('The backup is the database itself.');
  return { help: false, backup, database };
}

/**
 * Checks that `file` is an intact Gatehouse SQLite database: `PRAGMA integrity_check` answers ok
 * and it has run migrations.
 *
 * @throws ConfigError naming what is wrong.
 */
function checkBackup(file: string): void {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ConfigError(`${file} is not a SQLite database: ${(error as Error).message}`);
  }
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new ConfigError(`${file} failed its integrity check: ${String(check)}`);
    const migrated = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'gatehouse_migrations'").get();
    if (!migrated) throw new ConfigError(`${file} is not a Gatehouse database (no gatehouse_migrations table).`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${file} is not a readable SQLite database: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Folds the live database's write-ahead log into the file, proving on the way that no other
 * process has it open (an exclusive lock is refused at once while a server holds a connection).
 *
 * @throws ConfigError when the database is in use.
 */
function settleLiveDatabase(file: string): void {
  const db = new BetterSqlite3(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      db.exec('COMMIT');
    } catch {
      throw new ConfigError(`${file} is in use (is a server running on it?). Stop the server, then restore.`);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * `gatehouse restore <backup>`: checks the backup, keeps the current database as
 * `<database>.before-restore-<time>`, then puts a copy of the backup in its place (copied to
 * `<database>.partial` and renamed, so a failure leaves the old database where it was). The
 * restored file is readable by its owner only.
 *
 * @throws ConfigError when the backup is damaged or not Gatehouse's, or the database is in use.
 */
export async function runRestoreCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const command = resolveRestoreCommand(argv, env);
  if (command.help) {
    process.stdout.write(RESTORE_USAGE);
    return;
  }
  checkBackup(command.backup);
  const { database } = command;
  const present = existsSync(database);
  if (present) settleLiveDatabase(database);
  const partial = `${database}.partial`;
  rmSync(partial, { force: true });
  copyFileSync(command.backup, partial);
  chmodSync(partial, 0o600);
  let kept: string | null = null;
  if (present) {
    kept = `${database}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(database, kept);
    for (const side of ['-wal', '-shm']) rmSync(`${database}${side}`, { force: true });
  }
  renameSync(partial, database);
  process.stderr.write(`Restored ${command.backup} to ${database}.${kept ? ` The previous database is kept as ${kept}.` : ''}\n`);
}
