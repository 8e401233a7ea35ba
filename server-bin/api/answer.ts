import { randomUUID } from 'node:crypto';
import type { Core } from '../../core/index.ts';
import type { ReplyStream } from '../../core/operations/define.ts';
import { invokeOperation } from '../../core/operations/execute.ts';
import { securityHeaders } from '../security-headers.ts';
import { OPENAPI_PATHS, openApiDocument } from './openapi.ts';
import { openCookieBridge } from './cookie-bridge.ts';
import { API_PREFIXES, NOT_FOUND_TEXT, type ApiRoutes } from './routes.ts';
import { bodyLines, isNdjsonBody, operationBody } from './body.ts';
import { credentialsFromHeaders } from './credentials.ts';
import { clientAddressFromRequest, requestLocale } from './client-address.ts';
import { errorResponse, successResponse, type OperationResponse } from './render.ts';
import { corsHeaders, renderResponse, responsePrefixes } from './respond.ts';
import { answerScimRequest, scimSegments } from './scim.ts';
import { createOidcEntry } from '../oidc/entry.ts';

/** One `/api/…` request as an entry (node.ts, fetch.ts, dispatch.ts) read it, its body not yet read. */
export interface ApiRequest {
  /** Upper case. */
  method: string;
  /** The path as sent (under the mount path), without the query string. */
  pathname: string;
  /** The query string without its `?`, '' when there is none. */
  search: string;
  /** Request headers, lowercase names, repeated headers joined with ', '. */
  headers: Readonly<Record<string, string | undefined>>;
  /** `https` when the request came over TLS (or an https URL); decides the bridge cookie's `Secure`. */
  protocol: 'http' | 'https';
  /**
   * Reads the whole body (MAX_BODY_BYTES at most, body.ts readBody).
   * @throws KnownError BODY_PARSING_ERROR past the limit.
   */
  readBody(): Promise<Buffer>;
  /**
   * The body as it arrives, unread so far (the node:http request, a Web request's body stream),
   * for operations that take a streamed body (`ndjsonBody`); absent or null: `readBody` is used.
   */
  bodyStream?(): AsyncIterable<Uint8Array> | null;
  /** The socket's peer address; the loopback address in-process; undefined when unknown. */
  peerAddress: string | undefined;
}

/** What an entry writes for an {@link ApiRequest}. */
export interface ApiAnswer {
  requestId: string;
  status: number;
  /** Response headers, lowercase names, `content-length` included (not for a streamed reply). */
  headers: Record<string, string>;
  /** The body: text, or bytes (the gzipped OpenAPI document); '' for HEAD, 204, 304 and streamed replies. */
  body: string | Buffer;
  /** A body written as it is produced (server-sent events), after status and headers. */
  stream?: ReplyStream;
  /** `Set-Cookie` values, one header each (the identity provider's interaction cookies). */
  cookies?: string[];
}

/** Answers one API request; never throws. */
export type Answer = (request: ApiRequest) => Promise<ApiAnswer>;

/**
 * Whether a request is the API's (answered by {@link createAnswer}) rather than the pages':
 * its path (mount path removed) is under `/api/`, in any case.
 */
export function isApiPath(pathname: string): boolean {
  // Case-insensitive, as the routes are (`/API/V1/users/me` is an API request).
  if (pathname.length > 4 && pathname.slice(0, 5).toLowerCase() === '/api/') return true;
  // RFC 8414 §3.1: an issuer's metadata also lives at the host's root (the identity provider's, ../oidc/entry.ts).
  return pathname.startsWith(RFC8414_PREFIX);
}

const RFC8414_PREFIX = '/.well-known/oauth-authorization-server/api/';

/**
 * The one way into the API: every entry (node:http, and through it the Koa mount, Express and
 * Fastify; the Web `fetch` handler; the in-process `dispatch`) hands its request to this
 * function, so they answer alike. In the order of a request:
 * 1. security headers (../security-headers.ts), the request id under the request's header
 *    prefixes, CORS on every answer and 204 to OPTIONS (upstream
 *    https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx);
 * 2. the identity provider (../oidc/entry.ts) for its paths, when the project turned it on;
 *    the OpenAPI document (openapi.ts) for GET/HEAD of its paths;
 * 3. SCIM 2.0 requests (`/api/v1/scim/v2/…`, scim.ts: their own media type and error format);
 *    then the cookie bridge of Gatehouse's own pages (cookie-bridge.ts) for bridge requests;
 * 4. the operation route from the registry (routes.ts); an empty 405 when the path has routes
 *    for other methods only, else the plain-text 404;
 * 5. the body (body.ts) and the credentials (credentials.ts), then the operation itself
 *    (core's invokeOperation);
 * 6. the outcome rendered (render.ts) and its protocol headers (respond.ts), the length set
 *    ({@link finished});
 * 7. the request line logged, after the entry has written the answer (setImmediate: a slow log
 *    sink never delays an answer), and any unexpected error with its request id.
 */
export function createAnswer(core: Core, routes: ApiRoutes, options: { trustedProxyHops?: number } = {}): Answer {
  const { runtime } = core;
  const security = securityHeaders(runtime.baseUrl);
  const trustedProxyHops = options.trustedProxyHops ?? 0;
  const openApi = openApiDocument();
  const log = runtime.log;
  const oidc = createOidcEntry(runtime);

  const answer = async (requestId: string, sent: ApiRequest): Promise<ApiAnswer> => {
    const { method, pathname } = sent;
    const out: Record<string, string> = {};
    for (const [name, value] of security) out[name] = value;
    for (const prefix of responsePrefixes(sent.headers)) out[`${prefix}request-id`] = requestId;
    const clientAddress = clientAddressFromRequest(sent.peerAddress, sent.headers['x-forwarded-for'] || undefined, trustedProxyHops);
    const provided = await oidc({
      method,
      pathname,
      search: sent.search,
      headers: sent.headers,
      readBody: () => sent.readBody(),
      peerAddress: sent.peerAddress,
      clientAddress,
    }).catch((error: unknown) => {
      log.error({ request_id: requestId, err: (error as Error)?.stack ?? String(error) }, 'unexpected error');
      return { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.alloc(0), cookies: undefined };
    });
    if (provided) {
      const answered = finished(requestId, method, provided.status, Object.assign(out, provided.headers), provided.body);
      return provided.cookies ? { ...answered, cookies: provided.cookies } : answered;
    }
    Object.assign(out, corsHeaders(sent.headers['access-control-request-headers']));
    if (method === 'OPTIONS') return finished(requestId, method, 204, out, '');
    if ((method === 'GET' || method === 'HEAD') && OPENAPI_PATHS.has(pathname)) {
      const doc = await openApi(sent.headers);
      return finished(requestId, method, doc.status, Object.assign(out, doc.headers), doc.body ?? '');
    }

    const scim = scimSegments(pathname);
    if (scim) {
      const done = await answerScimRequest(runtime, sent, scim, queryValues(sent.search));
      return finished(requestId, method, done.status, Object.assign(out, done.headers), done.body);
    }

    let request = sent;
    let response: OperationResponse;
    let bridge: Awaited<ReturnType<typeof openCookieBridge<ApiRequest>>> = null;
    try {
      const prefix = API_PREFIXES.find((p) => pathname.startsWith(`${p}/`));
      bridge = await openCookieBridge(sent, prefix ? pathname.slice(prefix.length) : pathname, runtime.baseUrl);
      if (bridge) request = bridge.request;
      const found = routes.find(method, pathname);
      if (!found) {
        const allowed = routes.allowedMethods(pathname);
        if (allowed.length > 0) {
          // Upstream's route handlers (Next.js) answer a method their route does not export with
          // an empty 405; Gatehouse adds the `Allow` header RFC 9110 asks for.
          out.allow = [...allowed, 'OPTIONS'].sort().join(', ');
          return finished(requestId, method, 405, out, '');
        }
        out['content-type'] = 'text/plain; charset=utf-8';
        return finished(requestId, method, 404, out, NOT_FOUND_TEXT);
      }
      const { op, params } = found;
      const { headers } = request;
      const noBody = (method === 'GET' || method === 'HEAD') && !op.rawBody;
      const streamed = op.ndjsonBody && !noBody && isNdjsonBody(headers['content-type']);
      const ndjson = streamed
        ? bodyLines(headers['content-encoding'], request.bodyStream?.() ?? null, () => request.readBody())
        : undefined;
      const body = noBody || streamed ? undefined : await operationBody(op, method, headers, await request.readBody());
      try {
        const result = await invokeOperation(runtime, op, {
          method,
          pathname,
          params,
          body,
          ...(ndjson ? { ndjson } : {}),
          credentials: credentialsFromHeaders(headers),
          query: queryValues(request.search),
          clientAddress: clientAddressFromRequest(request.peerAddress, headers['x-forwarded-for'] || undefined, trustedProxyHops),
          userAgent: headers['user-agent'] || null,
          locale: requestLocale(headers['x-gatehouse-locale'], headers['accept-language']),
        });
        response = successResponse(op, result);
      } catch (error) {
        response = errorResponse(runtime, error, requestId);
        if (response.cause)
          log.error(
            { request_id: requestId, operation: op.id, err: (response.cause as Error)?.stack ?? String(response.cause) },
            'unexpected error',
          );
      }
    } catch (error) {
      // The body could not be read or parsed.
      response = errorResponse(runtime, error, requestId);
      if (response.cause)
        log.error({ request_id: requestId, err: (response.cause as Error)?.stack ?? String(response.cause) }, 'unexpected error');
    }
    const rendered = renderResponse(request.headers, response);
    const done = { status: rendered.status, headers: Object.assign(out, rendered.headers), text: rendered.body };
    bridge?.finish(done);
    if (response.stream) return { requestId, status: done.status, headers: done.headers, body: '', stream: response.stream };
    return finished(requestId, method, done.status, done.headers, done.text);
  };

  return async (request) => {
    const started = performance.now();
    const requestId = randomUUID();
    let answered: ApiAnswer;
    try {
      answered = await answer(requestId, request);
    } catch (error) {
      // Not expected (every step above catches its own failures); the client still gets an answer.
      log.error({ request_id: requestId, err: (error as Error)?.stack ?? String(error) }, 'unexpected error');
      answered = { requestId, status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '' };
    }
    setImmediate(() => {
      log.info(
        {
          request_id: requestId,
          method: request.method,
          path: request.pathname,
          status: answered.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    });
    return answered;
  };
}

/**
 * A whole answer as every entry sends it: `content-length` set here (so a HEAD answer carries the
 * GET's length, RFC 9110 §9.3.2) and the body left out for HEAD; as Koa did, a 204 or 304 answer
 * has no body, no content type and no length.
 */
function finished(requestId: string, method: string, status: number, headers: Record<string, string>, body: string | Buffer): ApiAnswer {
  if (status === 204 || status === 304) {
    delete headers['content-type'];
    return { requestId, status, headers, body: '' };
  }
  headers['content-length'] = String(Buffer.byteLength(body));
  return { requestId, status, headers, body: method === 'HEAD' ? '' : body };
}

/**
 * The query parameters of a query string (WHATWG URLSearchParams, as Koa read them), the first
 * value of each: a repeated parameter keeps its first value.
 */
export function queryValues(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (search === '') return out;
  const params = new URLSearchParams(search);
  for (const key of params.keys()) out[key] ??= params.get(key) ?? '';
  return out;
}
