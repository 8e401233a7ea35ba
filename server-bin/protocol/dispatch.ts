import { randomUUID } from 'node:crypto';
import type { Core } from '../../core/index.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { responsePrefixes } from '../http/generation.ts';
import { MAX_BODY_BYTES } from '../http/body.ts';
import { KnownError } from '../../core/index.ts';
import type { ApiRoutes } from './routes.ts';
import { createApiAnswerer } from './answer.ts';

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
 * Builds the in-process entry of the HTTP protocol: the same answer as over HTTP for an API path
 * (protocol/answer.ts, which the HTTP API lane uses too), run on plain values. Used by the SDK's
 * in-process transport (sdk/in-process.ts). Serves `/api/*` only; other paths answer 404. The
 * caller's address is the loopback address, as for a local socket; a streamed reply is
 * collected to its end. The OpenAPI document (server-bin/openapi.ts) is served over HTTP only.
 */
export function createDispatch(core: Core, routes: ApiRoutes, options: { trustedProxyHops?: number } = {}): Dispatch {
  const security = securityHeaders(core.runtime.baseUrl);
  const log = core.runtime.log;
  const answerApi = createApiAnswerer(core, routes, options);
  return async (request) => {
    const started = performance.now();
    const response = await answer(request);
    log.info({ request_id: response.requestId, method: request.method, path: request.path.split('?')[0], status: response.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    return { status: response.status, headers: response.headers, text: response.text };
  };

  async function answer(request: DispatchRequest): Promise<DispatchResponse & { requestId: string }> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    const queryAt = request.path.indexOf('?');
    const pathname = queryAt === -1 ? request.path : request.path.slice(0, queryAt);
    const search = queryAt === -1 ? '' : request.path.slice(queryAt + 1);
    const requestId = randomUUID();
    if (!pathname.startsWith('/api/')) {
      const out: Record<string, string> = {};
      for (const [name, value] of security) out[name] = value;
      for (const prefix of responsePrefixes(headers)) out[`${prefix}request-id`] = requestId;
      return { requestId, status: 404, headers: out, text: 'Not found' };
    }
    const answered = await answerApi({
      requestId,
      method: request.method.toUpperCase(),
      pathname,
      search,
      headers,
      peerAddress: LOOPBACK,
      readBody: async () => {
        const raw = Buffer.from(request.body ?? '', 'utf8');
        if (raw.length > MAX_BODY_BYTES) throw new KnownError('BODY_PARSING_ERROR', { message: `Request body is larger than ${MAX_BODY_BYTES} bytes.` });
        return raw;
      },
    });
    let text = answered.text;
    if (answered.stream) {
      const chunks: string[] = [];
      for await (const chunk of answered.stream(new AbortController().signal)) chunks.push(chunk);
      text = chunks.join('');
    }
    return { requestId: answered.requestId, status: answered.status, headers: answered.headers, text };
  }
}
