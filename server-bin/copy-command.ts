import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from './config.ts';
import { copyDatabase, DatabaseCopyError, type CopyProgress } from './database-copy.ts';
import { openStorage } from './storage.ts';

export const COPY_USAGE = `Usage: gatehouse copy --from <sqlite file | postgres url> --to <postgres url | sqlite file>

Copies a whole Gatehouse database (every project, user, key, webhook, template and sealed secret)
into an empty database, migrated to the same version, then compares every table's row count.
The source is only read; stop the server that writes it first, so the copy is one moment's state.

  --from <db>   the database to copy: a SQLite file (path, sqlite:<path> or file:<path>) or a
                postgres:// URL
  --to <db>     an empty database: a postgres:// URL, or a SQLite file that does not exist yet
  -h, --help    show this help

Run the new server with the same GATEHOUSE_SECRET as the old one: secrets stay sealed under it.
See docs/operations.md, "Moving to PostgreSQL".
`;

interface CopyCommand {
  help: boolean;
  from: string;
  to: string;
}

/** Normalises a `--from`/`--to` value to a URL openStorage takes: a bare path becomes `sqlite:<abs path>`. */
function databaseUrl(value: string): string {
  if (/^postgres(ql)?:\/\//.test(value)) return value;
  const m = /^(?:sqlite|file):(.+)$/.exec(value);
  return `sqlite:${resolve(m ? m[1]! : value)}`;
}

/**
 * Parses `gatehouse copy` arguments.
 *
 * @throws ConfigError when a flag is missing or unknown, the source SQLite file does not exist, the
 *   target SQLite file does exist, or both name the same database.
 */
export function resolveCopyCommand(argv: string[]): CopyCommand {
  let values: { from?: string; to?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see gatehouse copy --help)`);
  }
  if (values.help) return { help: true, from: '', to: '' };
  if (!values.from || !values.to) throw new ConfigError('Give both --from and --to (see gatehouse copy --help)');
  const from = databaseUrl(values.from);
  const to = databaseUrl(values.to);
  if (from === to) throw new ConfigError('--from and --to name the same database.');
  if (from.startsWith('sqlite:') && !existsSync(from.slice(7))) throw new ConfigError(`No database at ${from.slice(7)}.`);
  if (to.startsWith('sqlite:') && existsSync(to.slice(7)))
    throw new ConfigError(`${to.slice(7)} already exists; copy into a new file (the target must be empty).`);
  return { help: false, from, to };
}

/** Hides a URL's password in messages. */
function shown(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}

/**
 * `gatehouse copy --from … --to …` (server-bin/database-copy.ts does the work): prints progress
 * to stderr (a line per table, and on a terminal a live row count) and a summary at the end.
 *
 * @throws ConfigError on bad arguments; DatabaseCopyError when the copy is refused or its counts differ.
 */
export async function runCopyCommand(argv: string[]): Promise<void> {
  const command = resolveCopyCommand(argv);
  if (command.help) {
    process.stdout.write(COPY_USAGE);
    return;
  }
  const quiet = { healthIntervalMs: 0 };
  const source = openStorage(command.from, '.', undefined, quiet);
  const target = openStorage(command.to, '.', undefined, quiet);
  const started = performance.now();
  const live = process.stderr.isTTY === true;
  let lastTable = '';
  const report = (p: CopyProgress) => {
    if (p.rows !== p.tableRows) {
      if (live) process.stderr.write(`\r  ${p.table}: ${p.rows}/${p.tableRows} rows (${p.copied}/${p.total} in all)`);
      return;
    }
    if (p.table === lastTable) return;
    lastTable = p.table;
    process.stderr.write(`${live ? '\r\x1b[K' : ''}  ${p.table}: ${p.tableRows} rows (${p.copied}/${p.total} in all)\n`);
  };
  process.stderr.write(`Copying ${shown(command.from)} to ${shown(command.to)}…\n`);
  let untouched = true;
  let failed = false;
  try {
    const result = await copyDatabase(source, target, report);
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(
      `Copied ${result.rows} rows in ${result.tables.length} tables in ${seconds.toFixed(1)} s; every table's row count matches the source.\n`,
    );
  } catch (error) {
    untouched = error instanceof DatabaseCopyError && !error.targetWritten;
    failed = true;
    throw error;
  } finally {
    await Promise.allSettled([source.close(), target.close()]);
    // A failed copy into a new SQLite file leaves no half file; on PostgreSQL the message says what to drop.
    if (failed && command.to.startsWith('sqlite:'))
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${command.to.slice(7)}${suffix}`, { force: true });
    else if (failed && !untouched)
      process.stderr.write('The target may hold part of the copy: drop its tables (or the schema) before copying again.\n');
  }
}
