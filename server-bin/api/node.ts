import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ReplyStream } from '../../core/operations/define.ts';
import { isApiPath, type Answer, type ApiAnswer } from './answer.ts';
import { readBody } from './body.ts';

/**
 * The node:http entry into the API (the server's listener, `gatehouse.handler`, the Koa mount
 * `gatehouse.middleware`, and the Express and Fastify adapters, which all serve node:http's
 * request and response): an `/api/…` request (mount path already removed) is read into the one
 * answer (answer.ts), the answer written, and true returned; any other request is left untouched
 * (false) for the pages app (../app.ts).
 */
export function createNodeEntry(answer: Answer): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    if (!isApiPath(pathname)) return false;
    void answer({
      method: req.method ?? 'GET',
      pathname,
      search: queryAt === -1 ? '' : url.slice(queryAt + 1),
      headers: joinedHeaders(req.headers),
      protocol: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
      readBody: () => readBody(req),
      bodyStream: () => req,
      peerAddress: req.socket.remoteAddress,
    }).then((answered) => writeAnswer(res, answered));
    return true;
  };
}

/** Request headers with repeated ones joined by ', ' (lowercase names, as node:http gives them). */
function joinedHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Writes an answer: status and headers at once, then the body, or the stream as it comes. */
function writeAnswer(res: ServerResponse, answer: ApiAnswer): void {
  if (res.headersSent || res.destroyed) return;
  const headers = answer.headers;
  if (answer.stream) {
    res.writeHead(answer.status, headers);
    void writeStream(res, answer.stream);
    return;
  }
  res.writeHead(answer.status, answer.cookies ? { ...headers, 'set-cookie': answer.cookies } : headers);
  res.end(answer.body);
}

/**
 * Writes a streamed reply (server-sent events) chunk by chunk, waiting for the socket to drain.
 * The producer's signal aborts when the client goes away (the dashboard's Stop); a client that
 * left is not an error (nothing is logged).
 */
async function writeStream(res: ServerResponse, stream: ReplyStream): Promise<void> {
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  res.flushHeaders();
  try {
    for await (const chunk of stream(controller.signal)) {
      if (controller.signal.aborted) continue;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      }
    }
  } catch {
    // The producer reports its own failures in the stream; anything else ends the answer.
  } finally {
    if (!res.writableEnded) res.end();
  }
}
