import type { Core } from '../../core/index.ts';
import type { ReplyStream } from '../../core/operations/define.ts';
import type { OperationResponse } from './render.ts';
import { NOT_FOUND_TEXT, type ApiRoutes } from './routes.ts';
import { executeForProtocol, errorResponseFor } from '../http/execute.ts';
import { corsHeaders, renderResponse } from '../http/respond.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { responsePrefixes } from '../http/generation.ts';
import { operationBody } from '../http/body.ts';
import { clientAddressFromRequest } from '../http/client-address.ts';

/** One `/api/…` request as a transport read it, its body not yet read. */
export interface ApiExchange {
  /** The request's id (a UUID), sent back as `x-stack-request-id` and logged. */
  requestId: string;
  /** Upper case. */
  method: string;
  /** The path as sent (under the mount path), without the query string. */
  pathname: string;
  /** The query string without its `?`, '' when there is none. */
  search: string;
  /** Request headers, lowercase names, repeated headers joined with ', '. */
  headers: Readonly<Record<string, string | undefined>>;
  /**
   * Reads the whole body (MAX_BODY_BYTES at most, server-bin/http/body.ts).
   * @throws KnownError BODY_PARSING_ERROR past the limit.
   */
  readBody(): Promise<Buffer>;
  /** The socket's peer address; the loopback address in-process. */
  peerAddress: string | undefined;
}

/** What a transport writes for an {@link ApiExchange}. */
export interface ApiAnswer {
  requestId: string;
  status: number;
  /** Response headers, lowercase names. */
  headers: Record<string, string>;
  /** The body ('' for 204, 304 and streamed replies). */
  text: string;
  /** A body written as it is produced (server-sent events), after status and headers. */
  stream?: ReplyStream;
}

/** Answers one API request; never throws. */
export type ApiAnswerer = (exchange: ApiExchange) => Promise<ApiAnswer>;

/**
 * The API side of the HTTP protocol on plain values, shared by every transport so they answer
 * alike (server-bin/http/api-lane.ts over HTTP, protocol/dispatch.ts in-process, and Koa for the
 * cookie-bridge requests through the same render steps): security headers, a request id under
 * the request's header prefixes, CORS on every answer and 204 to OPTIONS (upstream
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx), the operation routes of the registry
 * (protocol/routes.ts), the plain-text 404 for an unknown route, body parsing
 * (http/body.ts), the operation (http/execute.ts) and its rendering (http/respond.ts). As Koa
 * does, a 204 or 304 answer has no body and no content type.
 */
export function createApiAnswerer(core: Core, routes: ApiRoutes, options: { trustedProxyHops?: number } = {}): ApiAnswerer {
  const security = securityHeaders(core.runtime.baseUrl);
  const trustedProxyHops = options.trustedProxyHops ?? 0;
  return async (exchange) => {
    const { requestId, method, pathname, headers } = exchange;
    const out: Record<string, string> = {};
    for (const [name, value] of security) out[name] = value;
    for (const prefix of responsePrefixes(headers)) out[`${prefix}request-id`] = requestId;
    Object.assign(out, corsHeaders(headers['access-control-request-headers']));
    if (method === 'OPTIONS') return { requestId, status: 204, headers: out, text: '' };

    const found = routes.find(method, pathname);
    if (!found) {
      out['content-type'] = 'text/plain; charset=utf-8';
      return { requestId, status: 404, headers: out, text: NOT_FOUND_TEXT };
    }
    const { op, params } = found;
    let response: OperationResponse;
    try {
      const noBody = method === 'GET' || method === 'HEAD';
      const raw = noBody && !op.rawBody ? EMPTY : await exchange.readBody();
      const body = noBody && !op.rawBody ? undefined : await operationBody(op, method, headers, raw);
      response = await executeForProtocol(core, op, {
        method, pathname, headers, params, query: firstQueryValues(exchange.search), body,
        clientAddress: clientAddressFromRequest(exchange.peerAddress, headers['x-forwarded-for'] || undefined, trustedProxyHops),
      }, requestId);
    } catch (error) {
      response = errorResponseFor(core, error, requestId);
    }
    const rendered = renderResponse(headers, response);
    Object.assign(out, rendered.headers);
    if (rendered.status === 204 || rendered.status === 304) {
      delete out['content-type'];
      return { requestId, status: rendered.status, headers: out, text: '' };
    }
    return { requestId, status: rendered.status, headers: out, text: rendered.body, stream: response.stream };
  };
}

const EMPTY = Buffer.alloc(0);

/** Query parameters as Koa reads them (koa/lib/search-params.js), keeping the first value of each. */
function firstQueryValues(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (search === '') return out;
  const params = new URLSearchParams(search);
  for (const key of params.keys()) out[key] ??= params.get(key) ?? '';
  return out;
}

