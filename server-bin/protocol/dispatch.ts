import { randomUUID } from 'node:crypto';
import type { Core } from '../../core/index.ts';
import type { OperationResponse } from './render.ts';
import { SIGNATURE_HEADER } from './raw-body.ts';
import { executeForProtocol, errorResponseFor } from '../http/execute.ts';
import { corsHeaders, renderResponse } from '../http/respond.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { responsePrefixes } from '../http/generation.ts';
import { parseBodyBytes, MAX_BODY_BYTES } from '../http/body.ts';
import { KnownError } from '../../core/index.ts';
import { NOT_FOUND_TEXT, type ApiRoutes } from './routes.ts';
import { clientAddressFromRequest } from '../http/client-address.ts';

/** The peer address of an in-process caller: the process itself. */
const LOOPBACK = '127.0.0.1';

/** One API request handed to {@link Dispatch}: no socket, no stream. */
export interface DispatchRequest {
  method: string;
  /** The path under the Gatehouse (no mount path), with its query string: `/api/v1/users/me?x=1`. */
  path: string;
  /** Request headers; names in any case. */
  headers?: Readonly<Record<string, string>>;
  /** The request body as text, absent when there is none. */
  body?: string;
}

/** The answer to a {@link DispatchRequest}: what the HTTP host would have written. */
export interface DispatchResponse {
  status: number;
  /** Response headers, lowercase names. */
  headers: Record<string, string>;
  /** The whole body (a streamed reply is collected to its end). */
  text: string;
}

/** Serves one API request in-process, with the same answer as over HTTP. */
export type Dispatch = (request: DispatchRequest) => Promise<DispatchResponse>;

/**
 * Builds the in-process entry of the HTTP protocol: the same steps the Koa app takes for an API
 * path (server-bin/app.ts: security headers, request id, CORS and OPTIONS, the operation routes
 * generated from the registry, the plain-text 404), run on plain values. Used by the SDK's
 * in-process transport (sdk/in-process.ts). Serves `/api/*` only; other paths answer 404.
 * The caller's address is the loopback address, as for a local socket. The OpenAPI document
 * (server-bin/openapi.ts) is served over HTTP only.
 */
export function createDispatch(core: Core, routes: ApiRoutes, options: { trustedProxyHops?: number } = {}): Dispatch {
  const security = securityHeaders(core.runtime.baseUrl);
  const log = core.runtime.log;
  return async (request) => {
    const started = performance.now();
    const response = await answer(request);
    log.info({ request_id: response.requestId, method: request.method, path: request.path.split('?')[0], status: response.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    return { status: response.status, headers: response.headers, text: response.text };
  };

  async function answer(request: DispatchRequest): Promise<DispatchResponse & { requestId: string }> {
    const requestId = randomUUID();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    const queryAt = request.path.indexOf('?');
    const pathname = queryAt === -1 ? request.path : request.path.slice(0, queryAt);
    const search = queryAt === -1 ? '' : request.path.slice(queryAt + 1);
    const method = request.method.toUpperCase();
    const out: Record<string, string> = {};
    for (const [name, value] of security) out[name] = value;
    for (const prefix of responsePrefixes(headers)) out[`${prefix}request-id`] = requestId;
    if (!pathname.startsWith('/api/')) return { requestId, status: 404, headers: out, text: 'Not found' };
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
      const raw = Buffer.from(request.body ?? '', 'utf8');
      if (raw.length > MAX_BODY_BYTES) throw new KnownError('BODY_PARSING_ERROR', { message: `Request body is larger than ${MAX_BODY_BYTES} bytes.` });
      const body = op.rawBody
        ? { payload: raw.toString('utf8'), signature: headers[SIGNATURE_HEADER[op.rawBody.signedBy]] || undefined }
        : parseBodyBytes(method, headers['content-type'], raw);
      response = await executeForProtocol(core, op, {
        method, pathname, headers, params, query: firstQueryValues(search), body,
        clientAddress: clientAddressFromRequest(LOOPBACK, headers['x-forwarded-for'] || undefined, options.trustedProxyHops ?? 0),
      }, requestId);
    } catch (error) {
      response = errorResponseFor(core, error, requestId);
    }
    const rendered = renderResponse(headers, response);
    Object.assign(out, rendered.headers);
    let text = rendered.body;
    if (response.stream) {
      const chunks: string[] = [];
      for await (const chunk of response.stream(new AbortController().signal)) chunks.push(chunk);
      text = chunks.join('');
    }
    if (rendered.status === 204 || rendered.status === 304) {
      // As Koa: an empty status has no body and no content type.
      delete out['content-type'];
      return { requestId, status: rendered.status, headers: out, text: '' };
    }
    return { requestId, status: rendered.status, headers: out, text };
  }
}

/** Query parameters as Koa reads them (koa/lib/search-params.js), keeping the first value of each. */
function firstQueryValues(search: string): Record<string, string> {
  const params = new URLSearchParams(search);
  const out: Record<string, string> = {};
  for (const key of params.keys()) out[key] ??= params.get(key) ?? '';
  return out;
}
