import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { ReplyStream } from '../../core/operations/define.ts';
import type { OperationResponse } from '../protocol/render.ts';
import { responsePrefixes } from './generation.ts';

/** Headers the browser may read on cross-origin responses (upstream packages/stack-shared/src/interface/client-interface.ts). */
export const EXPOSED_HEADERS = 'content-type, x-stack-actual-status, x-stack-known-error, x-hexclave-actual-status, x-hexclave-known-error, x-stack-request-id, x-hexclave-request-id, retry-after';

/**
 * Writes an operation response: known-error headers under the request's prefixes
 * ({@link responsePrefixes}), the error-status
 * override (a 4xx answered as 200 with `x-stack-actual-status`, upstream apps/backend/src/route-handlers/smart-response.tsx), pretty JSON
 * for browsers (`Accept: text/html`), and `cache-control: no-store` unless the route set its own.
 */
export function writeResponse(ctx: Context, response: OperationResponse): void {
  let status = response.status;
  const prefixes = responsePrefixes(ctx.headers);
  const override = ctx.get('x-stack-override-error-status') || ctx.get('x-hexclave-override-error-status');
  if (override && status >= 400 && status < 500) {
    for (const prefix of prefixes) ctx.set(`${prefix}actual-status`, String(status));
    status = 200;
  }
  if (response.knownError) {
    for (const prefix of prefixes) ctx.set(`${prefix}known-error`, response.knownError);
  }
  ctx.set('cache-control', 'no-store, max-age=0');
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  ctx.status = status;
  ctx.type = response.contentType;
  if (response.stream) {
    ctx.set('x-accel-buffering', 'no');
    ctx.respond = false;
    void writeStream(ctx.res, response.stream);
    return;
  }
  let body = response.body;
  if (response.contentType.startsWith('application/json') && (ctx.get('accept') ?? '').includes('text/html')) {
    try { body = JSON.stringify(JSON.parse(body), null, 2); } catch { /* leave as is */ }
  }
  ctx.body = body;
}

/**
 * Writes a streamed reply (server-sent events) chunk by chunk, waiting for the socket to drain,
 * unbuffered by proxies (`x-accel-buffering: no`). The producer's signal aborts when the client
 * goes away (the dashboard's Stop); a client that left is not an error (nothing is logged).
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
          const done = () => { res.off('drain', done); res.off('close', done); resolve(); };
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
