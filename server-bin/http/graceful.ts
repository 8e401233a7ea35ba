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

interface ConnectionState { requests: number; active: number }

/** Graceful shutdown of one HTTP server; see trackConnections. */
export interface ConnectionDrain {
  /**
   * Keeps accepting for ACCEPT_WINDOW_MS, and on until no connection arrived for QUIET_MS (at
   * most MAX_ACCEPT_WINDOW_MS), then stops; lets requests in flight finish, serves
   * the first request of connections accepted before (sent within `graceMs`), answers with
   * `connection: close`, and closes idle keep-alive connections. Resolves once every connection
   * is closed.
   */
  drain(graceMs?: number): Promise<void>;
}

/**
 * Tracks the connections of `server` for a graceful stop (issue 12 item 9). Node's own
 * `server.close()` also closes every connection that has no request in progress, which resets a
 * connection accepted a moment before shutdown whose request is still on its way; this drain
 * instead stops the listener only, serves what arrives, and ends connections politely (FIN, not
 * RST) once they are idle.
 */
export function trackConnections(server: Server): ConnectionDrain {
  const states = new Map<Socket, ConnectionState>();
  let draining = false;
  let lastAccept = -Infinity;
  const closeIfIdle = (socket: Socket) => {
    const state = states.get(socket);
    if (state && state.active === 0 && state.requests > 0) socket.end();
  };
  server.on('connection', (socket: Socket) => {
    lastAccept = performance.now();
    states.set(socket, { requests: 0, active: 0 });
    socket.once('close', () => states.delete(socket));
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
    drain: (graceMs = FIRST_REQUEST_GRACE_MS) => new Promise<void>((resolve) => {
      draining = true;
      for (const socket of states.keys()) closeIfIdle(socket);
      const stopListening = () => {
        // net.Server's close stops the listener without http.Server's "close idle connections".
        NetServer.prototype.close.call(server, () => resolve());
        for (const socket of states.keys()) closeIfIdle(socket);
        const grace = setTimeout(() => {
          // After the poll phase (setImmediate), so a request that arrived while the event loop
          // was stalled is read and counted before its connection is judged silent.
          setImmediate(() => {
            let silent = 0;
            for (const [socket, state] of states) if (state.requests === 0) { silent++; socket.destroy(); }
            if (silent > 0) process.stderr.write(`Closed ${silent} connection(s) that sent no request within ${graceMs} ms of shutdown.\n`);
          });
        }, graceMs);
        grace.unref();
        server.once('close', () => clearTimeout(grace));
      };
      // Close the listener once QUIET_MS passed without an accept, judged right after a poll
      // phase (setImmediate runs after it, and the poll phase accepts everything queued), so no
      // connection that reached the kernel's accept queue is left there to be reset; at most
      // MAX_ACCEPT_WINDOW_MS (a connection racing the close itself can still be reset: only
      // the kernel could refuse it atomically).
      const deadline = performance.now() + MAX_ACCEPT_WINDOW_MS;
      const check = () => {
        const now = performance.now();
        if (now - lastAccept >= QUIET_MS) { stopListening(); return; }
        if (now >= deadline) {
          process.stderr.write(`Stopped listening ${MAX_ACCEPT_WINDOW_MS} ms into shutdown while connections were still arriving.\n`);
          stopListening();
          return;
        }
        setTimeout(() => setImmediate(check), Math.min(QUIET_MS - (now - lastAccept), deadline - now) + 1);
      };
      setTimeout(() => setImmediate(check), ACCEPT_WINDOW_MS);
    }),
  };
}
