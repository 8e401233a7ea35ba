import { createServer } from 'node:http';
import { createGatehouse, type GatehouseOptions } from '../../server-bin/index.ts';
import { INTERNAL_KEYS, type TestServer } from './server.ts';

/**
 * Another Gatehouse "process" on `server`'s database: its own runtime (caches, revocation view)
 * and its own HTTP port, the same secret, keys and clock. Use `view` with the api helper.
 */
export async function startSecondProcess(server: TestServer, options: Partial<GatehouseOptions> = {}) {
  const storage = server.database.open();
  const gatehouse = await createGatehouse({
    storage,
    baseUrl: server.url,
    secret: 'test-secret-do-not-use-in-production',
    clock: server.clock,
    strictErrors: true,
    environment: 'test',
    seedKeys: INTERNAL_KEYS,
    ...options,
  });
  const http = createServer(gatehouse.handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  return {
    view: { ...server, url } as TestServer,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await gatehouse.close();
      await storage.close();
    },
  };
}
