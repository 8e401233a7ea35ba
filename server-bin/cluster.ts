import cluster, { type Worker } from 'node:cluster';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { closeListenerWhenQuiet } from './graceful.ts';
import { StartupError, startServer, type RunningServer } from './serve.ts';
import type { ServerConfig } from './config.ts';
import type { StaticFiles } from './sea/static-files.ts';
import { createGatehouse } from './index.ts';

/** Messages between the primary and its workers. */
type WorkerMessage = { type: 'listening' } | { type: 'startup-error'; message: string };
/**
 * `connection` comes with a socket the primary accepted; `shutdown` starts the drain (answers
 * get `connection: close`); `no-more-connections` follows the last connection handed over (one
 * IPC channel keeps the order).
 */
type PrimaryMessage = { type: 'shutdown' } | { type: 'connection' } | { type: 'no-more-connections' };

/** True in a process forked by runCluster. */
export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/** How long the primary waits for workers to drain on shutdown before killing them, in ms. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** A worker that dies within this many ms of its start counts toward a crash loop. */
const CRASH_WINDOW_MS = 5_000;

/**
 * Runs the server as `config.workers` processes (node:cluster) sharing one port, one SQLite file
 * (WAL) or one PostgreSQL (docs/scaling.md). The primary serves no requests: it runs
 * the migrations and first-start seeding once, before any worker starts (so processes never
 * race on the schema), forks the workers, resolves with the URL once all of them listen, restarts
 * a worker that dies (unless several die within seconds of starting: then everything stops), and
 * on `stop()` asks every worker to drain (in-flight requests finish, then each closes its
 * database) and waits for them.
 *
 * The primary listens itself and hands each accepted connection to the next worker, round-robin
 * (not node:cluster's own round-robin: its primary resets the connections it still holds when
 * the last worker stops listening). On shutdown the primary keeps accepting until the accept
 * queue stays empty (http/graceful.ts closeListenerWhenQuiet), hands everything over, and only
 * then tells the workers that no more connections will come; so every connection that reached
 * the accept queue is answered.
 *
 * @returns the URL the workers listen on, the internal keys when this start generated them, and `stop`.
 * @throws StartupError when the database cannot be prepared or a worker cannot listen.
 */
export async function runCluster(config: ServerConfig): Promise<{
  url: string;
  generatedKeys: Awaited<ReturnType<typeof createGatehouse>>['core']['generatedKeys'];
  stop(): Promise<void>;
  exited: Promise<number>;
}> {
  // Migrate and seed once, here, then close: workers find the schema and keys in place.
  let generatedKeys;
  try {
    const prepared = await createGatehouse({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      databaseTimeouts: config.databaseTimeouts,
      baseUrl: config.baseUrl,
      secret: config.secret,
      seedKeys: config.seedKeys,
      smtpUrl: null,
      environment: config.environment,
      onFirstStartNotice: false,
    });
    generatedKeys = prepared.core.generatedKeys;
    await prepared.close();
  } catch (error) {
    const where = config.databaseUrl ? config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@') : `${config.dataDir}/gatehouse.db`;
    throw new StartupError(`Cannot open the database at ${where}: ${(error as Error).message || String(error)}`);
  }

  // The primary's listener; sockets stay paused until a worker reads them.
  const listener: NetServer = createNetServer({ pauseOnConnect: true });
  try {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(config.port, config.host, () => {
        listener.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      throw new StartupError(`Port ${config.port} on ${config.host} is already in use. Stop the other process or pass --port.`);
    if (code === 'EACCES') throw new StartupError(`No permission to listen on ${config.host}:${config.port}. Use a port above 1023.`);
    throw new StartupError(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const listenUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const readyWorkers: Worker[] = [];
  const waiting: Socket[] = [];
  let next = 0;
  let lastAccept = -Infinity;
  let inFlight = 0;
  let onHandedOver: (() => void) | null = null;
  const handOver = (socket: Socket): void => {
    if (readyWorkers.length === 0) {
      waiting.push(socket);
      return;
    }
    const worker = readyWorkers[next++ % readyWorkers.length]!;
    inFlight++;
    try {
      worker.send({ type: 'connection' } satisfies PrimaryMessage, socket, (error: Error | null) => {
        if (error) socket.destroy();
        if (--inFlight === 0 && onHandedOver) {
          const done = onHandedOver;
          onHandedOver = null;
          done();
        }
      });
    } catch {
      socket.destroy();
      if (--inFlight === 0 && onHandedOver) {
        const done = onHandedOver;
        onHandedOver = null;
        done();
      }
    }
  };
  listener.on('connection', (socket: Socket) => {
    lastAccept = performance.now();
    handOver(socket);
  });
  // An accept failure (out of file descriptors, say) is reported, never fatal to the primary.
  listener.on('error', (error) => process.stderr.write(`gatehouse: accepting a connection failed: ${error.message}\n`));
  const markReady = (worker: Worker) => {
    readyWorkers.push(worker);
    for (const socket of waiting.splice(0)) handOver(socket);
  };

  // Workers read their settings from the same flags and environment; the flags travel in the
  // environment so the single executable (whose argv layout differs) forks the same way.
  // CLUSTER_WORKER_ARGV is plumbing between the primary and its workers, not a setting.
  cluster.setupPrimary({ args: [], silent: false });
  const env = { CLUSTER_WORKER_ARGV: JSON.stringify(process.argv.slice(2)) };
  let stopping = false;
  const recentCrashes: number[] = [];
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });
  const live = new Set<Worker>();

  const stopAll = async (): Promise<void> => {
    stopping = true;
    const exits = [...live].map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) {
            resolve();
            return;
          }
          worker.once('exit', () => resolve());
        }),
    );
    const tell = (message: PrimaryMessage) => {
      // A worker already exiting (Ctrl-C reaches the whole group) has closed its channel.
      for (const worker of live) {
        try {
          worker.send(message);
        } catch {
          /* exiting already */
        }
      }
    };
    const timer = setTimeout(() => {
      for (const worker of live) worker.process.kill('SIGKILL');
    }, SHUTDOWN_TIMEOUT_MS);
    tell({ type: 'shutdown' });
    // Accept everything queued, hand it over, then close the workers' intake.
    await closeListenerWhenQuiet(listener, () => lastAccept);
    for (const socket of waiting.splice(0)) socket.destroy();
    if (inFlight > 0)
      await new Promise<void>((resolve) => {
        onHandedOver = resolve;
      });
    tell({ type: 'no-more-connections' });
    await Promise.all(exits);
    clearTimeout(timer);
  };

  const fork = (onListening: (url: string) => void, onFailure: (message: string) => void): void => {
    const started = Date.now();
    const worker = cluster.fork(env);
    live.add(worker);
    let listening = false;
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'listening') {
        listening = true;
        markReady(worker);
        onListening(listenUrl);
      }
      if (message.type === 'startup-error') onFailure(message.message);
    });
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      const index = readyWorkers.indexOf(worker);
      if (index >= 0) readyWorkers.splice(index, 1);
      if (stopping) {
        if (live.size === 0) resolveExit(0);
        return;
      }
      if (!listening) {
        onFailure(`a worker exited (${code ?? signal}) before listening`);
        return;
      }
      const now = Date.now();
      if (now - started < CRASH_WINDOW_MS) recentCrashes.push(now);
      while (recentCrashes.length > 0 && now - recentCrashes[0]! > CRASH_WINDOW_MS * 2) recentCrashes.shift();
      if (recentCrashes.length >= 3) {
        process.stderr.write('gatehouse: workers keep crashing; stopping.\n');
        void stopAll().then(() => resolveExit(1));
        return;
      }
      process.stderr.write(`gatehouse: worker ${worker.process.pid} exited (${code ?? signal}); starting another.\n`);
      fork(
        () => {},
        (message) => process.stderr.write(`gatehouse: replacement worker failed: ${message}\n`),
      );
    });
  };

  const url = await new Promise<string>((resolve, reject) => {
    let ready = 0;
    let failed = false;
    for (let i = 0; i < config.workers; i++) {
      fork(
        (workerUrl) => {
          if (++ready === config.workers) resolve(workerUrl);
        },
        (message) => {
          if (failed) return;
          failed = true;
          void stopAll().then(() => reject(new StartupError(message)));
        },
      );
    }
  });
  let stopped: Promise<void> | undefined;
  return { url, generatedKeys, exited, stop: () => (stopped ??= stopAll().then(() => resolveExit(0))) };
}

/**
 * The body of a worker process: starts the server on the shared port, tells the primary, and
 * drains when the primary says so (or on SIGINT/SIGTERM sent to the whole process group).
 */
export async function runClusterWorker(config: ServerConfig, staticFiles: StaticFiles | undefined): Promise<void> {
  let running: RunningServer | null = null;
  let stopping = false;
  let noMore!: () => void;
  const noMoreConnections = new Promise<void>((resolve) => {
    noMore = resolve;
  });
  // Without the primary (it died), nothing more will be handed over.
  process.once('disconnect', () => noMore());
  // Listen for the primary from the start: a shutdown asked while this worker still starts
  // (a replacement, say) ends it as soon as it is up, instead of being lost.
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    if (!running) return;
    running.stop(noMoreConnections).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('message', (message: PrimaryMessage, handle?: unknown) => {
    if (message.type === 'connection') {
      if (running && handle) running.server.emit('connection', handle as Socket);
      else (handle as Socket | undefined)?.destroy();
    }
    if (message.type === 'shutdown') shutdown();
    if (message.type === 'no-more-connections') noMore();
  });
  // Ctrl-C reaches every process of the group: the primary coordinates, workers just drain.
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  try {
    const id = cluster.worker?.id ?? 0;
    running = await startServer(config, {
      staticFiles,
      workerId: id,
      listen: false,
      healthInfo: () => ({ worker: id, pid: process.pid, workers: config.workers }),
    });
  } catch (error) {
    process.send?.({ type: 'startup-error', message: (error as Error).message } satisfies WorkerMessage);
    process.exit(1);
  }
  if (stopping) {
    stopping = false;
    shutdown();
    return;
  }
  process.send?.({ type: 'listening' } satisfies WorkerMessage);
}
