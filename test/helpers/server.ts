import { createServer, type Server } from 'node:http';
import type { CoreOptions, Dialect } from '../../core/index.ts';
import { createGatehouse, type Gatehouse } from '../../server-bin/index.ts';
import { manualClock } from '../../core/lib/clock.ts';
import { createMigratedTestDatabase, type TestDatabase } from './dialects.ts';

import { INTERNAL_KEYS } from './internal-keys.ts';

export { INTERNAL_KEYS };

export interface TestServer {
  url: string;
  dialect: Dialect;
  gatehouse: Gatehouse;
  database: TestDatabase;
  /** The injected clock: tests move time with `clock.advance(ms)`. */
  clock: ReturnType<typeof manualClock>;
  close(): Promise<void>;
}

/**
 * Starts the real server (Koa over node:http) on a loopback port with a fresh database of
 * `dialect`, strict error declarations, an injected clock, known internal keys and cheap
 * password hashes (tests of the real argon2id cost pass `testPasswordHashing: false`).
 */
export async function startTestServer(
  dialect: Dialect,
  options: {
    accessTokenTtlMs?: number;
    baseUrl?: string;
    smtpUrl?: string;
    emailPollIntervalMs?: number;
    webhookPollIntervalMs?: number;
    oauthEndpointOverrides?: Record<string, Record<string, string>>;
    stripeApiOverride?: CoreOptions['stripeApiOverride'];
    environment?: 'production' | 'development' | 'test';
    hooks?: CoreOptions['hooks'];
    ai?: CoreOptions['ai'];
    turnstile?: CoreOptions['turnstile'];
    outboundPrivateHosts?: string[];
    dnsServers?: string[];
    /** Cheap password hashes (core option testPasswordHashing); default on, except in production. */
    testPasswordHashing?: boolean;
  } = {},
): Promise<TestServer> {
  const database = await createMigratedTestDatabase(dialect);
  const clock = manualClock(Date.now());
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}`;
  const storage = database.open();
  const gatehouse = await createGatehouse({
    storage,
    baseUrl: options.baseUrl ?? url,
    secret: 'test-secret-do-not-use-in-production',
    clock,
    accessTokenTtlMs: options.accessTokenTtlMs,
    strictErrors: true,
    environment: options.environment ?? 'test',
    seedKeys: INTERNAL_KEYS,
    smtpUrl: options.smtpUrl ?? null,
    emailPollIntervalMs: options.emailPollIntervalMs ?? 50,
    webhookPollIntervalMs: options.webhookPollIntervalMs ?? 50,
    oauthEndpointOverrides: options.oauthEndpointOverrides,
    stripeApiOverride: options.stripeApiOverride,
    hooks: options.hooks,
    ai: options.ai,
    turnstile: options.turnstile,
    outboundPrivateHosts: options.outboundPrivateHosts,
    dnsServers: options.dnsServers,
    testPasswordHashing: options.testPasswordHashing ?? options.environment !== 'production',
  }).catch(async (error: unknown) => {
    // Leave nothing open that would keep the test process alive after a failed start.
    server.close();
    await storage.close().catch(() => {});
    await database.drop().catch(() => {});
    throw error;
  });
  server.on('request', gatehouse.handler);
  return {
    url,
    dialect,
    gatehouse,
    database,
    clock,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gatehouse.close();
      await database.drop();
    },
  };
}
