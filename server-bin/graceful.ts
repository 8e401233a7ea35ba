import { Server as NetServer, type Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * How long, in ms, a connection accepted before shutdown may take to send its first request
 * once shutdown began (it is then served, with `connection: close`).
 */
export const FIRST_REQUEST_GRACE_MS = 2000;

/**
 * How long, in ms, the listener keeps accepting after shutdown begins: connections already in
 * the kernel's accept queue would otherwise be reset when the listening socket closes.
 */
export const ACCEPT_WINDOW_MS = 100;
/**
 * The listener closes once no connection has been accepted for this long, in ms, measured after
 * an event-loop poll (which accepts everything in the kernel's queue). Under `--workers` the
 * primary hands connections on over IPC: a worker's quiet turn alone does not prove that none is
 * on its way.
 */
export const QUIET_MS = 50;
/** Longest the listener stays open after shutdown begins while connections keep arriving, in ms. */
export const MAX_ACCEPT_WINDOW_MS = 1000;

interface ConnectionState {
  requests: number;
  active: number;
}

/** Graceful shutdown of one HTTP server; see trackConnections. */
export interface ConnectionDrain {
  /**
   * Keeps accepting for ACCEPT_WINDOW_MS, and on until no connection arrived for QUIET_MS (at
   * most MAX_ACCEPT_WINDOW_MS), then stops; lets requests in flight finish, serves
   * the first request of connections accepted before (sent within `graceMs`), answers with
   * `connection: close`, and closes idle keep-alive connections. Resolves once every connection
   * is closed.
   */
  drain(graceMs?: number, noMoreConnections?: Promise<void>): Promise<void>;
}

/**
 * Closes a listening `server` once no connection has been accepted for QUIET_MS (after at least
 * ACCEPT_WINDOW_MS, at most MAX_ACCEPT_WINDOW_MS), judged right after an event-loop poll phase,
 * which accepts everything waiting in the kernel's queue: so no connection that reached the
 * accept queue is left there to be reset. A connection racing the close itself can still be reset
 * (only the kernel could refuse it atomically). `lastAccept` gives performance.now() of the latest
 * accept. Resolves once the listener is closed (not waiting for its connections).
 */
export function closeListenerWhenQuiet(server: NetServer, lastAccept: () => number): Promise<void> {
  return new Promise((resolve) => {
    const deadline = performance.now() + MAX_ACCEPT_WINDOW_MS;
    const close = () => {
      // net.Server's own close stops the listener at once (http.Server's would also close idle
      // connections); its callback would wait for the connections, this does not.
      if (server.listening) NetServer.prototype.close.call(server);
      resolve();
    };
    const check = () => {
      const now = performance.now();
      if (now - lastAccept() >= QUIET_MS) {
        close();
        return;
      }
      if (now >= deadline) {
        process.stderr.write(`Stopped listening ${MAX_ACCEPT_WINDOW_MS} ms into shutdown while connections were still arriving.\n`);
        close();
        return;
      }
      setTimeout(() => setImmediate(check), Math.min(QUIET_MS - (now - lastAccept()), deadline - now) + 1);
    };
    setTimeout(() => setImmediate(check), ACCEPT_WINDOW_MS);
  });
}

/**
 * Tracks the connections of `server` for a graceful stop. Node's own
 * `server.close()` also closes every connection that has no request in progress, which resets a
 * connection accepted a moment before shutdown whose request is still on its way; this drain
 * instead stops the listener only, serves what arrives, and ends connections politely (FIN, not
 * RST) once they are idle.
 */
export function trackConnections(server: Server): ConnectionDrain {
  const states = new Map<Socket, ConnectionState>();
  let draining = false;
  let lastAccept = -Infinity;
  let onEmpty: (() => void) | null = null;
  const closeIfIdle = (socket: Socket) => {
    const state = states.get(socket);
    if (state && state.active === 0 && state.requests > 0) socket.end();
  };
  server.on('connection', (socket: Socket) => {
    lastAccept = performance.now();
    states.set(socket, { requests: 0, active: 0 });
    socket.once('close', () => {
      states.delete(socket);
      if (states.size === 0 && onEmpty) {
        const done = onEmpty;
        onEmpty = null;
        done();
      }
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const state = states.get(socket);
    if (!state) return;
    state.requests++;
    state.active++;
    if (draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      state.active--;
      if (draining) closeIfIdle(socket);
    });
  });
  return {
    drain: (graceMs = FIRST_REQUEST_GRACE_MS, noMoreConnections) =>
      new Promise<void>((resolve) => {
        draining = true;
        for (const socket of states.keys()) closeIfIdle(socket);
        // Without a listener of its own (a `--workers` worker: the primary accepts and hands
        // connections on), the primary says when the last one has been handed over.
        const accepting = noMoreConnections ?? closeListenerWhenQuiet(server, () => lastAccept);
        void accepting.then(() => {
          if (server.listening) NetServer.prototype.close.call(server);
          for (const socket of states.keys()) closeIfIdle(socket);
          const grace = setTimeout(() => {
            // After the poll phase (setImmediate), so a request that arrived while the event loop
            // was stalled is read and counted before its connection is judged silent.
            setImmediate(() => {
              let silent = 0;
              for (const [socket, state] of states)
                if (state.requests === 0) {
                  silent++;
                  socket.destroy();
                }
              if (silent > 0)
                process.stderr.write(`Closed ${silent} connection(s) that sent no request within ${graceMs} ms of shutdown.\n`);
            });
          }, graceMs);
          grace.unref();
          const done = () => {
            clearTimeout(grace);
            resolve();
          };
          if (states.size === 0) done();
          else onEmpty = done;
        });
      }),
  };
}
