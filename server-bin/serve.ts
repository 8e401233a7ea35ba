import { createServer, type Server } from 'node:http';
import { createGatehouse, type Gatehouse } from './index.ts';
import type { ServerConfig } from './config.ts';
import { configurePasswordHashing, configureRenderPool, cpuBudget } from '../core/index.ts';
import { createJsonLogger } from './logger.ts';
import { withStaticFiles, type StaticFiles } from './sea/static-files.ts';
import { trackConnections } from './graceful.ts';
import { securityHeaders } from './security-headers.ts';
import { loadGatehouseDocs } from './ai-docs.ts';

/** A started server. */
export interface RunningServer {
  gatehouse: Gatehouse;
  server: Server;
  url: string;
  /**
   * Stops accepting connections, lets in-flight requests finish (and the first request of a
   * connection accepted just before), closes keep-alive connections once idle, then closes the
   * database. Without a listener (`listen: false`), `noMoreConnections` says when the last
   * connection has been handed over.
   */
  stop(noMoreConnections?: Promise<void>): Promise<void>;
}

/** How often node:http checks its connections against the headers and request timeouts, in ms. */
const HTTP_TIMEOUT_CHECK_MS = 1000;

/** A start-up failure with a one-line message for the user (no stack trace). */
export class StartupError extends Error {}

/**
 * Opens storage, seeds, and listens. Errors a user can fix (busy port, unreachable database,
 * bad database URL) become StartupError with a one-line message.
 */
export async function startServer(
  config: ServerConfig,
  options: {
    logLevel?: 'info' | 'silent';
    strictErrors?: boolean;
    environment?: 'development' | 'production' | 'test';
    staticFiles?: StaticFiles;
    healthInfo?: () => Record<string, unknown>;
    workerId?: number;
    listen?: boolean;
  } = {},
): Promise<RunningServer> {
  // Process-wide CPU admission (core/lib/admission.ts): hashing takes the cores left to this
  // process once the request path has one, divided among `--workers` processes.
  const budget = cpuBudget(config.workers ?? 1);
  configurePasswordHashing({ concurrency: config.hashConcurrency ?? budget, maxQueued: config.hashQueue ?? 64 });
  // Not below 2: a built-in email is rendered inside its caller's transaction (core/emails/
  // send-built-in.ts), so a render queued behind another keeps a transaction open meanwhile.
  configureRenderPool({ size: Math.max(2, budget) });
  let gatehouse: Gatehouse;
  try {
    gatehouse = await createGatehouse({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      databaseTimeouts: config.databaseTimeouts,
      baseUrl: config.baseUrl,
      secret: config.secret,
      accessTokenTtlMs: config.accessTokenTtlMs,
      seedKeys: config.seedKeys,
      trustedProxyHops: config.trustedProxyHops,
      smtpUrl: config.smtpUrl ?? null,
      outboundPrivateHosts: config.outboundPrivateHosts,
      dnsServers: config.dnsServers,
      geoipDatabase: config.geoipDatabase ?? null,
      ai: { ...config.ai, docs: loadGatehouseDocs },
      turnstile: config.turnstile,
      operatorSecrets: config.operatorSecrets,
      logger: createJsonLogger(options.logLevel ?? 'info'),
      strictErrors: options.strictErrors,
      environment: options.environment ?? config.environment ?? 'production',
      // The CLI prints its own start-up lines, the first-start notice among them.
      onFirstStartNotice: false,
      healthInfo: options.healthInfo,
    });
  } catch (error) {
    const message = (error as Error).message;
    const where = config.databaseUrl ? config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@') : `${config.dataDir}/gatehouse.db`;
    throw new StartupError(`Cannot open the database at ${where}: ${message || (error as { code?: string }).code || String(error)}`);
  }
  // Static files of the single executable are answered before the Koa app, with the same
  // security headers; the API's answer and the pages app set their own (each response once).
  const handler = options.staticFiles
    ? withStaticFiles(gatehouse.handler, options.staticFiles, securityHeaders(config.baseUrl))
    : gatehouse.handler;
  const worker = options.workerId === undefined ? null : String(options.workerId);
  const timeouts = config.httpTimeouts;
  const server = createServer(
    {
      // A client that trickles its headers or body is cut off (408) instead of holding the
      // connection for Node's default 5 minutes; checked every second, not every 30 s.
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      connectionsCheckingInterval: HTTP_TIMEOUT_CHECK_MS,
    },
    (req, res) => {
      // Under `--workers`, which process answered (for operators and the scale tests).
      if (worker) res.setHeader('x-gatehouse-worker', worker);
      handler(req, res);
    },
  );
  const connections = trackConnections(server);
  // A `--workers` worker does not listen: the primary accepts and hands connections to it
  // (server-bin/cluster.ts), which are fed to `server` as 'connection' events.
  if (options.listen === false) {
    let stopping: Promise<void> | undefined;
    return {
      gatehouse,
      server,
      url: '',
      stop: (noMore) =>
        (stopping ??= (async () => {
          await connections.drain(undefined, noMore ?? Promise.resolve());
          await gatehouse.close();
        })()),
    };
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await gatehouse.close();
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      throw new StartupError(`Port ${config.port} on ${config.host} is already in use. Stop the other process or pass --port.`);
    if (code === 'EACCES') throw new StartupError(`No permission to listen on ${config.host}:${config.port}. Use a port above 1023.`);
    throw new StartupError(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  let stopping: Promise<void> | undefined;
  return {
    gatehouse,
    server,
    url,
    stop: () =>
      (stopping ??= (async () => {
        // Stop accepting; requests in flight finish; a connection accepted just before gets its
        // first request served; keep-alive connections close once idle (graceful.ts).
        await connections.drain();
        await gatehouse.close();
      })()),
  };
}
