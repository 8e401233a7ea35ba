import { randomUUID } from 'node:crypto';
import { isApiPath, type Answer } from './answer.ts';
import { readBody } from './body.ts';
import { securityHeaders } from '../security-headers.ts';
import { responsePrefixes } from './respond.ts';

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
 * Builds the in-process entry into the API: the one answer (answer.ts) that the node:http entry
 * and the Web handler call, on plain values. Used by the SDK's in-process transport
 * (sdk/in-process.ts). Serves `/api/*` only; other paths answer a plain 404 with the security
 * headers and a request id. The caller's address is the loopback address, as for a local socket;
 * the request's `Accept-Encoding` is not passed on (the answer's text is never compressed); a
 * streamed reply is collected to its end.
 */
export function createDispatch(answer: Answer, baseUrl: string): Dispatch {
  const security = securityHeaders(baseUrl);
  return async (request) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      const lower = name.toLowerCase();
      if (lower !== 'accept-encoding') headers[lower] = value;
    }
    const queryAt = request.path.indexOf('?');
    const pathname = queryAt === -1 ? request.path : request.path.slice(0, queryAt);
    if (!isApiPath(pathname)) {
      const out: Record<string, string> = Object.fromEntries(security);
      for (const prefix of responsePrefixes(headers)) out[`${prefix}request-id`] = randomUUID();
      return { status: 404, headers: out, text: 'Not found' };
    }
    const answered = await answer({
      method: request.method.toUpperCase(),
      pathname,
      search: queryAt === -1 ? '' : request.path.slice(queryAt + 1),
      headers,
      protocol: 'http',
      peerAddress: LOOPBACK,
      readBody: () => readBody(request.body === undefined ? null : [Buffer.from(request.body, 'utf8')]),
    });
    let text = typeof answered.body === 'string' ? answered.body : answered.body.toString('utf8');
    if (answered.stream) {
      const chunks: string[] = [];
      for await (const chunk of answered.stream(new AbortController().signal)) chunks.push(chunk);
      text = chunks.join('');
    }
    return { status: answered.status, headers: answered.headers, text };
  };
}
