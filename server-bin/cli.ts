#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { ConfigError, USAGE, resolveServerConfig } from './config.ts';
import { StartupError, startServer } from './serve.ts';

function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The `gatehouse` command: parse flags, start, print where things are, stop cleanly on signals. */
async function main(): Promise<void> {
  const config = resolveServerConfig(process.argv.slice(2), process.env);
  if (config.help) { process.stdout.write(USAGE); return; }
  if (config.version) { process.stdout.write(`gatehouse ${version()}\n`); return; }

  const running = await startServer(config);
  const { gatehouse } = running;
  const lines = [
    '',
    `Gatehouse ${version()} is running.`,
    `  Dashboard:  ${config.baseUrl}/`,
    `  API:        ${config.baseUrl}/api/v1`,
    `  Storage:    ${config.databaseUrl ? 'PostgreSQL' : `SQLite, ${config.dataDir}/gatehouse.db`}`,
  ];
  const keys = gatehouse.core.generatedKeys;
  if (keys) {
    lines.push(
      '',
      'Keys of the internal project, shown this once (save them; new ones can be made in the dashboard):',
      `  STACK_PROJECT_ID=internal`,
      `  STACK_PUBLISHABLE_CLIENT_KEY=${keys.publishable_client_key}`,
      `  STACK_SECRET_SERVER_KEY=${keys.secret_server_key}`,
      `  STACK_SUPER_SECRET_ADMIN_KEY=${keys.super_secret_admin_key}`,
    );
  } else {
    lines.push('  Keys:       the internal project keys were printed on first start (or come from GATEHOUSE_SEED_INTERNAL_*).');
  }
  process.stderr.write(`${lines.join('\n')}\n\n`);

  const shutdown = (signal: string) => {
    process.stderr.write(`Received ${signal}; finishing in-flight requests…\n`);
    const force = setTimeout(() => { process.stderr.write('Shutdown timed out; exiting.\n'); process.exit(1); }, 10_000);
    force.unref();
    running.stop().then(() => process.exit(0), (error: unknown) => { process.stderr.write(`Shutdown failed: ${(error as Error).message}\n`); process.exit(1); });
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError) {
    process.stderr.write(`gatehouse: ${error.message}\n`);
  } else {
    process.stderr.write(`gatehouse: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
  }
  process.exit(1);
});
