import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/index.ts';
import type { ApiAnswer, ApiAnswerer } from '../protocol/answer.ts';
import { COOKIE_BRIDGE_HEADER } from '../../core/protocol/cookie-bridge.ts';
import { OPENAPI_PATHS } from '../openapi.ts';
import { readRequestBody } from './body.ts';
import { writeStream } from './respond.ts';
import { joinedHeaders } from './execute.ts';

/**
 * Serves an `/api/…` request straight on node:http (the read path), through the same
 * answer as the in-process dispatch (protocol/answer.ts), and returns true; returns false for
 * the requests the Koa app serves instead: anything outside `/api/`, the OpenAPI document
 * (server-bin/openapi.ts: ETag, gzip) and the cookie-bridge requests of Gatehouse's own pages
 * (http/cookie-bridge.ts, which rewrites the request and the answer).
 *
 * Koa builds a context, runs a chain of middleware and answers through its own response
 * object for every request; on `GET /users/me` that, with the router walking every route, was
 * about a fifth of the request's CPU time. The answers are the same (server-bin/mount.test.ts,
 * server-bin/http/api-lane.test.ts); the request line is logged once the response has gone out,
 * as in server-bin/app.ts.
 */
export function createApiLane(answerApi: ApiAnswerer, log: Logger): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    const method = req.method ?? 'GET';
    if (!isApiLaneRequest(method, pathname, req.headers)) return false;

    const started = performance.now();
    const requestId = randomUUID();
    res.once('close', () => {
      log.info({ request_id: requestId, method, path: pathname, status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    });
    void answerApi({
      requestId,
      method,
      pathname,
      search: queryAt === -1 ? '' : url.slice(queryAt + 1),
      headers: joinedHeaders(req.headers),
      readBody: () => readRequestBody(req),
      peerAddress: req.socket.remoteAddress,
    }).then((answer) => write(res, answer), (error: unknown) => {
      // The answerer never throws; should it, the client still gets an answer.
      log.error({ request_id: requestId, err: (error as Error)?.stack ?? String(error) }, 'unexpected error');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    });
    return true;
  };
}

/**
 * Whether the API lane (and the Web `fetch` handler, http/fetch-handler.ts) answers a request
 * through protocol/answer.ts: a path under `/api/` (mount path removed), unless it is a
 * cookie-bridge request or a read of the OpenAPI document, which the Koa app serves.
 * `headers` has lowercase names.
 */
export function isApiLaneRequest(method: string, pathname: string, headers: Readonly<Record<string, unknown>>): boolean {
  if (!pathname.startsWith('/api/')) return false;
  if (headers[COOKIE_BRIDGE_HEADER] !== undefined) return false;
  return !((method === 'GET' || method === 'HEAD') && OPENAPI_PATHS.has(pathname));
}

/** Writes an answer: status and headers at once, then the body, or the stream as it comes. */
function write(res: ServerResponse, answer: ApiAnswer): void {
  if (res.headersSent || res.destroyed) return;
  const headers = answer.headers;
  if (answer.stream) {
    res.writeHead(answer.status, headers);
    void writeStream(res, answer.stream);
    return;
  }
  if (answer.status !== 204 && answer.status !== 304) headers['content-length'] = String(Buffer.byteLength(answer.text));
  res.writeHead(answer.status, headers);
  res.end(answer.text);
}
