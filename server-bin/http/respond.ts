import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { ReplyStream } from '../../core/operations/define.ts';
import type { OperationResponse } from '../protocol/render.ts';
import { responsePrefixes } from './generation.ts';

/** Headers the browser may read on cross-origin responses (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts). */
export const EXPOSED_HEADERS = 'content-type, x-stack-actual-status, x-stack-known-error, x-hexclave-actual-status, x-hexclave-known-error, x-stack-request-id, x-hexclave-request-id, retry-after';

/**
 * Writes an operation response: known-error headers under the request's prefixes
 * ({@link responsePrefixes}), the error-status
 * override (a 4xx answered as 200 with `x-stack-actual-status`, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx), pretty JSON
 * for browsers (`Accept: text/html`), and `cache-control: no-store` unless the route set its own.
 */
export function writeResponse(ctx: Context, response: OperationResponse): void {
  const rendered = renderResponse(ctx.headers as Readonly<Record<string, string | string[] | undefined>>, response);
  for (const [name, value] of Object.entries(rendered.headers)) if (name !== 'content-type') ctx.set(name, value);
  ctx.status = rendered.status;
  ctx.type = response.contentType;
  if (response.stream) {
    ctx.respond = false;
    void writeStream(ctx.res, response.stream);
    return;
  }
  ctx.body = rendered.body;
}

/** An operation response as the protocol puts it on the wire, before any transport writes it. */
export interface RenderedResponse {
  status: number;
  /** Lowercase names, in the order they are set (later ones replace earlier ones). */
  headers: Record<string, string>;
  /** The body text; '' for a streamed reply (written by the transport as it comes). */
  body: string;
}

/**
 * Renders an operation response for a request with `requestHeaders` (lowercase names): the
 * steps of {@link writeResponse}, shared by the Koa app and the in-process dispatch
 * (server-bin/protocol/dispatch.ts) so both answer alike.
 */
export function renderResponse(requestHeaders: Readonly<Record<string, string | string[] | undefined>>, response: OperationResponse): RenderedResponse {
  const get = (name: string): string => { const value = requestHeaders[name]; return Array.isArray(value) ? value.join(', ') : value ?? ''; };
  const headers: Record<string, string> = {};
  let status = response.status;
  const prefixes = responsePrefixes(requestHeaders);
  const override = get('x-stack-override-error-status') || get('x-hexclave-override-error-status');
  if (override && status >= 400 && status < 500) {
    for (const prefix of prefixes) headers[`${prefix}actual-status`] = String(status);
    status = 200;
  }
  if (response.knownError) {
    for (const prefix of prefixes) headers[`${prefix}known-error`] = response.knownError;
  }
  headers['cache-control'] = 'no-store, max-age=0';
  for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = value;
  headers['content-type'] = response.contentType;
  if (response.stream) {
    headers['x-accel-buffering'] = 'no';
    return { status, headers, body: '' };
  }
  let body = response.body;
  if (response.contentType.startsWith('application/json') && get('accept').includes('text/html')) {
    try { body = JSON.stringify(JSON.parse(body), null, 2); } catch { /* leave as is */ }
  }
  return { status, headers, body };
}

/**
 * CORS headers of every API response (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx):
 * any origin, the methods, the requested headers (or any), the protocol headers exposed.
 */
export function corsHeaders(requestedHeaders: string | undefined): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': requestedHeaders || '*',
    'access-control-expose-headers': EXPOSED_HEADERS,
    'access-control-max-age': '86400',
  };
}

/**
 * Writes a streamed reply (server-sent events) chunk by chunk, waiting for the socket to drain,
 * unbuffered by proxies (`x-accel-buffering: no`). The producer's signal aborts when the client
 * goes away (the dashboard's Stop); a client that left is not an error (nothing is logged).
 */
export async function writeStream(res: ServerResponse, stream: ReplyStream): Promise<void> {
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
