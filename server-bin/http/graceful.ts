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
/** Longest the listener stays open after shutdown begins while connections keep arriving, in ms. */
export const MAX_ACCEPT_WINDOW_MS = 1000;

interface ConnectionState { requests: number; active: number }

/** Graceful shutdown of one HTTP server; see trackConnections. */
export interface ConnectionDrain {
  /**
   * Keeps accepting for ACCEPT_WINDOW_MS (longer while connections keep arriving, up to
   * MAX_ACCEPT_WINDOW_MS), then stops; lets requests in flight finish, serves
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
  let accepted = 0;
  const closeIfIdle = (socket: Socket) => {
    const state = states.get(socket);
    if (state && state.active === 0 && state.requests > 0) socket.end();
  };
  server.on('connection', (socket: Socket) => {
    accepted++;
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
      // Close the listener right after an event-loop turn in which nothing was accepted
      // (setImmediate runs after the poll phase, which accepts everything queued), so no
      // connection is left in the kernel's accept queue to be reset; at most MAX_ACCEPT_WINDOW_MS.
      const deadline = Date.now() + MAX_ACCEPT_WINDOW_MS;
      setTimeout(() => {
        let seen = accepted;
        const check = () => {
          if (accepted === seen || Date.now() > deadline) { stopListening(); return; }
          seen = accepted;
          setImmediate(check);
        };
        setImmediate(check);
      }, ACCEPT_WINDOW_MS);
    }),
  };
}
