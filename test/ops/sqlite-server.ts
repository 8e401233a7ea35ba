import { createServer } from 'node:http';
import { createGatehouse } from '../../server-bin/index.ts';
import { createSqliteAdapter, type SqliteAdapterOptions } from '../../adapters/sqlite/index.ts';
import { createJsonLogger } from '../../server-bin/logger.ts';
import { SEED_KEYS } from './process.ts';

/** A Gatehouse served in this process on a loopback port. */
export interface InProcessServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Closes the connections, the listener and the Gatehouse (and its storage). */
  close(): Promise<void>;
}

/**
 * Serves a Gatehouse on the SQLite file `options.filename` in this process (seeded with
 * SEED_KEYS' secret server key), for fault tests that lock the file from another connection.
 */
export async function serveSqliteInProcess(options: SqliteAdapterOptions): Promise<InProcessServer> {
  const gatehouse = await createGatehouse({
    storage: createSqliteAdapter(options),
    baseUrl: 'http://127.0.0.1',
    secret: 'fault-test-secret',
    logger: createJsonLogger('silent'),
    seedKeys: { secretServerKey: SEED_KEYS.GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY },
    strictErrors: true,
    environment: 'test',
  });
  const server = createServer(gatehouse.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gatehouse.close();
    },
  };
}
