import { createServer, connect, type Socket } from 'node:net';

/** A loopback TCP proxy a fault test puts between a server and its database. */
export interface TcpProxy {
  /** The proxy's loopback port. */
  readonly port: number;
  /** Open client↔target connection pairs. */
  readonly connections: number;
  /** Resets every open connection (TCP RST on both sides), as a network fault would. */
  resetAll(): void;
  /**
   * Stops forwarding bytes, as a stalled network or a frozen database would: data is held,
   * new connections are accepted but get no answer. Nothing is closed.
   */
  pause(): void;
  /** Forwards the held bytes and resumes forwarding. */
  resume(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  target: Socket;
}

/**
 * Starts a TCP proxy on 127.0.0.1 (a free port) forwarding to `target`. Used by fault tests that
 * reset or pause PostgreSQL traffic with a real loopback connection.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let paused = false;
  const held: Array<{ to: Socket; chunk: Buffer }> = [];
  const server = createServer((client) => {
    const pair: Pair = { client, target: connect(target.port, target.host) };
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) => {
      from.on('data', (chunk: Buffer) => {
        if (paused) held.push({ to, chunk });
        else if (!to.destroyed) to.write(chunk);
      });
      from.on('end', () => {
        if (!paused) to.end();
      });
      from.on('close', () => {
        pairs.delete(pair);
        to.destroy();
      });
      from.on('error', () => {
        pairs.delete(pair);
        to.destroy();
      });
    };
    forward(client, pair.target);
    forward(pair.target, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get connections() {
      return pairs.size;
    },
    resetAll() {
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.target.resetAndDestroy();
      }
      pairs.clear();
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    async close() {
      server.close();
      for (const pair of pairs) {
        pair.client.destroy();
        pair.target.destroy();
      }
      pairs.clear();
    },
  };
}
