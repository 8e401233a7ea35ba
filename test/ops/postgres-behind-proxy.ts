import { createTestDatabase, postgresUrl, type TestDatabase } from '../helpers/dialects.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { spawnGatehouse, type GatehouseProcess } from './process.ts';
import { GATEHOUSE_CLI } from '../helpers/gatehouse-cli.ts';

/** The server's CLI (the bundle, test/helpers/gatehouse-cli.ts), as fault tests start it. */
export const CLI = [...GATEHOUSE_CLI];

/** A real gatehouse process whose PostgreSQL traffic goes through a loopback TCP proxy. */
export interface ProxiedGatehouse {
  /** The test's own schema (reach it directly with `database.open()`). */
  database: TestDatabase;
  /** Between the process and PostgreSQL: pause, resume or reset its traffic. */
  proxy: TcpProxy;
  proc: GatehouseProcess;
  /** Kills the process, closes the proxy and drops the schema. */
  close(): Promise<void>;
}

/**
 * Creates a test schema, puts a loopback TCP proxy in front of the test PostgreSQL and starts a
 * gatehouse process on it with `env` (plus `application_name` in the URL when given, so a test
 * can find the process's backends in pg_stat_activity) and extra CLI `args` (`--workers 2`).
 */
export async function spawnBehindProxy(env: NodeJS.ProcessEnv, applicationName?: string, args: string[] = []): Promise<ProxiedGatehouse> {
  const database = await createTestDatabase('postgres');
  const target = new URL(postgresUrl());
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const url = new URL(database.databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  if (applicationName) url.searchParams.set('application_name', applicationName);
  const proc = await spawnGatehouse([...CLI, '--port', '0', '--database-url', url.toString(), ...args], { env, timeoutMs: 60_000 });
  return {
    database,
    proxy,
    proc,
    async close() {
      proc.child.kill('SIGKILL');
      await proc.exited;
      await proxy.close();
      await database.drop();
    },
  };
}
