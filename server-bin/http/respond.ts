import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { OperationResponse } from '../../core/index.ts';
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
    // Streamed replies (server-sent events): written chunk by chunk, unbuffered by proxies; the
    // producer's signal aborts when the client goes away (the dashboard's "Stop").
    const controller = new AbortController();
    ctx.res.once('close', () => controller.abort());
    ctx.set('x-accel-buffering', 'no');
    ctx.body = Readable.from(response.stream(controller.signal), { objectMode: false });
    return;
  }
  let body = response.body;
  if (response.contentType.startsWith('application/json') && (ctx.get('accept') ?? '').includes('text/html')) {
    try { body = JSON.stringify(JSON.parse(body), null, 2); } catch { /* leave as is */ }
  }
  ctx.body = body;
}
