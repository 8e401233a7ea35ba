import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { isApiPath, type Answer, type ApiAnswer } from './answer.ts';
import { readBody } from './body.ts';

/** Per-request facts a Web host knows and a `Request` does not carry. */
export interface FetchContext {
  /** The client's address as the host saw it (for per-address throttling); default unknown. */
  clientAddress?: string;
}

/** A Web-standard handler: Hono, Next.js route handlers, Bun.serve, Deno.serve. */
export type FetchHandler = (request: Request, context?: FetchContext) => Promise<Response>;

/**
 * Builds `gatehouse.fetch`: the Web-standard entry (WHATWG Fetch `Request` → `Response`).
 *
 * - Paths outside `prefix` (the mount path) answer a plain 404.
 * - Bodies are answered uncompressed (the request's `Accept-Encoding` is not passed on): a Web
 *   host compresses its responses itself (Next.js does, and gzipped twice a body that came
 *   gzipped); use the host's compression middleware where it has none by default.
 * - API requests (`/api/…`, {@link isApiPath}) go to the one answer (answer.ts) that the node:http
 *   entry and `dispatch` call; the body is read from the `Request` (MAX_BODY_BYTES at most, else
 *   BODY_PARSING_ERROR) and a streamed reply becomes the `Response`'s body stream.
 * - Everything else (hosted pages, the dashboard, static files: the Koa pages app) is handed to
 *   `pages`, a node:http handler, over a loopback listener opened on first use and closed by the
 *   returned `close`.
 *   The request is forwarded as sent (method, path with the mount prefix, headers, body) with
 *   `context.clientAddress` (or `unknown`) appended to `X-Forwarded-For`; `pages` must trust that
 *   one hop more than the host's own proxies.
 */
export function createFetchHandler(options: {
  prefix: string;
  answer: Answer;
  pages: (req: IncomingMessage, res: ServerResponse) => void;
}): { fetch: FetchHandler; close(): Promise<void> } {
  const { prefix, answer } = options;
  let listener: Promise<{ server: Server; port: number }> | null = null;

  const pagesPort = () => {
    listener ??= new Promise((resolve, reject) => {
      const server = createServer(options.pages);
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
    });
    return listener.then((l) => l.port);
  };

  const fetch: FetchHandler = async (request, context = {}) => {
    const url = new URL(request.url);
    let pathname = url.pathname;
    if (prefix) {
      if (pathname !== prefix && !pathname.startsWith(`${prefix}/`))
        return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      pathname = pathname.slice(prefix.length) || '/';
    }
    if (!isApiPath(pathname)) return forwardToPages(request, url, context, await pagesPort());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (name !== 'accept-encoding') headers[name] = value;
    });
    const answered = await answer({
      method: request.method.toUpperCase(),
      pathname,
      search: url.search.slice(1),
      headers,
      protocol: url.protocol === 'https:' ? 'https' : 'http',
      readBody: () => readBody(request.body as AsyncIterable<Uint8Array> | null),
      bodyStream: () => request.body as AsyncIterable<Uint8Array> | null,
      peerAddress: context.clientAddress,
    });
    return toResponse(answered, request.signal);
  };

  const close = async () => {
    const open = listener;
    listener = null;
    if (!open) return;
    const { server } = await open.catch(() => ({ server: null }));
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return { fetch, close };
}

/** An answer (answer.ts) as a Web `Response` (a streamed reply as its body stream). */
function toResponse(answer: ApiAnswer, signal: AbortSignal): Response {
  const headers = new Headers(answer.headers);
  for (const cookie of answer.cookies ?? []) headers.append('set-cookie', cookie);
  const init = { status: answer.status, headers };
  if (answer.status === 204 || answer.status === 304 || (!answer.stream && answer.body.length === 0)) return new Response(null, init);
  if (!answer.stream) return new Response(answer.body as string | Uint8Array<ArrayBuffer>, init);
  const controller = new AbortController();
  signal.addEventListener('abort', () => controller.abort(), { once: true });
  const chunks = answer.stream(controller.signal)[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      async pull(stream) {
        const next = await chunks.next();
        if (next.done) stream.close();
        else stream.enqueue(encoder.encode(next.value));
      },
      cancel() {
        controller.abort();
      },
    }),
    init,
  );
}

/** Sends `request` to the pages listener and returns its answer as a `Response`. */
function forwardToPages(request: Request, url: URL, context: FetchContext, port: number): Promise<Response> {
  const headers: Record<string, string | string[]> = {};
  request.headers.forEach((value, name) => {
    if (name !== 'accept-encoding') headers[name] = value;
  });
  headers.host = url.host;
  // Always one hop more, so a client's own X-Forwarded-For entry is never the one trusted.
  const peer = context.clientAddress ?? 'unknown';
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${peer}` : peer;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method: request.method, path: `${url.pathname}${url.search}`, headers },
      (incoming) => {
        const out = new Headers();
        for (let i = 0; i < incoming.rawHeaders.length; i += 2) out.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        const status = incoming.statusCode ?? 500;
        const empty = status === 204 || status === 304 || request.method === 'HEAD';
        if (empty) incoming.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), { status, headers: out }));
      },
    );
    outgoing.once('error', reject);
    if (request.body) Readable.fromWeb(request.body as import('node:stream/web').ReadableStream).pipe(outgoing);
    else outgoing.end();
  });
}
