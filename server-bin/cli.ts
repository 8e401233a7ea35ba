#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './page-shell.ts';
import { browserUrl, firstStartNotice } from './startup-notice.ts';
import { BACKUP_USAGE, ConfigError, USAGE, resolveBackupConfig, resolveServerConfig, type ServerConfig } from './config.ts';
import { StartupError, startServer } from './serve.ts';
import { backupSqlite } from './backup.ts';
import { runConfigCommand } from './config-command.ts';
import { runInitCommand } from './init-command.ts';
import { runImportCommand } from './import-command.ts';
import { runExportCommand } from './export-command.ts';
import { runCopyCommand } from './copy-command.ts';
import { runRestoreCommand } from './restore-command.ts';
import { DatabaseCopyError } from './database-copy.ts';
import { embeddedStaticFiles, type StaticFiles } from './sea/static-files.ts';
import { embeddedText, isSea } from './sea/native.ts';
import { configureCelPool, configureRenderPool, type Core } from '../core/index.ts';
import { isClusterWorker, runCluster, runClusterWorker } from './cluster.ts';

/** Set by `scripts/build-binary.mjs` (esbuild `define`) in the single executable. */
declare const __GATEHOUSE_VERSION__: string | undefined;

function version(): string {
  if (typeof __GATEHOUSE_VERSION__ === 'string') return __GATEHOUSE_VERSION__;
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The prebuilt pages embedded in the single executable (dist/ui/*, see scripts/build-binary.mjs);
 * none under `npm start`, where the app's own middleware reads dist/ui from disk.
 */
function staticFiles(): StaticFiles | undefined {
  return isSea() ? embeddedStaticFiles() : undefined;
}

/** `gatehouse backup <file>`: an online copy of the SQLite database (safe while the server runs). */
async function backup(argv: string[]): Promise<void> {
  const config = resolveBackupConfig(argv, process.env);
  if (config.help) {
    process.stdout.write(BACKUP_USAGE);
    return;
  }
  const started = performance.now();
  const result = await backupSqlite(config.source, config.destination);
  process.stderr.write(
    `Backed up ${config.source} to ${config.destination} (${result.pages} pages) in ${Math.round(performance.now() - started)} ms.\n`,
  );
}

/**
 * The `gatehouse` command: `gatehouse [serve] [options]` starts the server, prints where things
 * are and stops cleanly on SIGINT/SIGTERM (in-flight requests finish, then the database closes);
 * `gatehouse backup <file>` copies the SQLite database with the online backup API;
 * `gatehouse config pull|push` moves a project's branch config between a file and a running server;
 * `gatehouse init` connects the app in the current folder to a project (server-bin/init-command.ts);
 * `gatehouse import <file>` bulk-imports users into a project (server-bin/import-command.ts);
 * `gatehouse copy --from … --to …` copies a whole database between SQLite and PostgreSQL
 * (server-bin/copy-command.ts); `gatehouse restore <file>` puts a SQLite backup in place
 * (server-bin/restore-command.ts).
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'backup') return backup(argv.slice(1));
  if (argv[0] === 'config') return runConfigCommand(argv.slice(1), process.env);
  if (argv[0] === 'init') {
    await runInitCommand(argv.slice(1), process.env);
    return;
  }
  if (argv[0] === 'import') {
    await runImportCommand(argv.slice(1), process.env);
    return;
  }
  if (argv[0] === 'export') {
    await runExportCommand(argv.slice(1), process.env);
    return;
  }
  if (argv[0] === 'copy') return runCopyCommand(argv.slice(1));
  if (argv[0] === 'restore') return runRestoreCommand(argv.slice(1), process.env);
  // A `--workers` process gets the primary's flags through the environment (server-bin/cluster.ts).
  const workerArgv =
    isClusterWorker() && process.env.CLUSTER_WORKER_ARGV ? (JSON.parse(process.env.CLUSTER_WORKER_ARGV) as string[]) : null;
  const args = workerArgv ?? argv;
  const config = resolveServerConfig(args[0] === 'serve' ? args.slice(1) : args, process.env);
  if (config.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (config.version) {
    process.stdout.write(`gatehouse ${version()}\n`);
    return;
  }

  const started = performance.now();
  // The single executable has no worker files: email rendering and sign-up conditions run the embedded worker bundles.
  if (isSea()) {
    configureRenderPool({ source: { code: embeddedText('workers/email-render.cjs') } });
    configureCelPool({ source: { code: embeddedText('workers/cel.cjs') } });
  }
  if (isClusterWorker()) return runClusterWorker(config, staticFiles());
  if (config.workers > 1) return primary(config, started);
  const running = await startServer(config, { staticFiles: staticFiles() });
  const { gatehouse } = running;
  // The handlers are in place before the "Listening" line: a supervisor (or a test) may signal
  // the moment it reads that line, and an unhandled SIGTERM would end the process at once.
  const shutdown = (signal: string) => {
    process.stderr.write(`Received ${signal}; finishing in-flight requests…\n`);
    const force = setTimeout(() => {
      process.stderr.write('Shutdown timed out; exiting.\n');
      process.exit(1);
    }, 10_000);
    force.unref();
    running.stop().then(
      () => {
        process.stderr.write('Stopped.\n');
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`Shutdown failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  printBanner(config, running.url, started, gatehouse.core.generatedKeys, 1);
}

/**
 * `--workers n` with n > 1: this process prepares the database, forks the workers and
 * coordinates their shutdown (server-bin/cluster.ts); it serves no requests itself.
 */
async function primary(config: ServerConfig, started: number): Promise<void> {
  const cluster = await runCluster(config);
  const shutdown = (signal: string) => {
    process.stderr.write(`Received ${signal}; finishing in-flight requests…\n`);
    void cluster.stop();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  printBanner(config, cluster.url, started, cluster.generatedKeys, config.workers);
  const code = await cluster.exited;
  process.stderr.write(code === 0 ? 'Stopped.\n' : '');
  process.exit(code);
}

/** The start-up lines: where things are, and the first-start notice when keys were generated. */
function printBanner(config: ServerConfig, url: string, started: number, keys: Core['generatedKeys'], workers: number): void {
  const lines = [
    '',
    `Gatehouse ${version()} is running (started in ${Math.round(performance.now() - started)} ms).`,
    `  Listening:  ${url}${workers > 1 ? ` (${workers} worker processes)` : ''}`,
    `  Dashboard:  ${browserUrl(config.baseUrl)}/`,
    `  API:        ${browserUrl(config.baseUrl)}/api/v1`,
    `  Storage:    ${config.databaseUrl ? 'PostgreSQL' : `SQLite, ${config.dataDir}/gatehouse.db`}`,
  ];
  if (keys) {
    lines.push('', ...firstStartNotice(config.baseUrl, keys));
  } else {
    lines.push('  Keys:       the internal project keys were printed on first start (or come from GATEHOUSE_SEED_INTERNAL_*).');
  }
  process.stderr.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError || error instanceof DatabaseCopyError) {
    process.stderr.write(`gatehouse: ${error.message}\n`);
  } else {
    process.stderr.write(`gatehouse: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
  }
  process.exit(1);
});
