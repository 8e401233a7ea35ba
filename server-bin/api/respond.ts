import type { OperationResponse } from './render.ts';

/** The two spellings of Stack's protocol headers (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts). */
export type HeaderPrefix = 'x-stack-' | 'x-hexclave-';

const BOTH: readonly HeaderPrefix[] = ['x-stack-', 'x-hexclave-'];
const STACK_ONLY: readonly HeaderPrefix[] = ['x-stack-'];
const HEXCLAVE_ONLY: readonly HeaderPrefix[] = ['x-hexclave-'];

/**
 * The prefixes of the protocol headers a response carries (`…known-error`, `…actual-status`,
 * `…request-id`), chosen by the request's own generation: a request that sent only `x-stack-*`
 * headers (older official SDKs) gets `x-stack-*` only, one that sent only `x-hexclave-*` (the
 * current SDK) gets `x-hexclave-*` only, and one that sent both or neither gets both (older
 * clients do not expect the other generation's headers).
 */
export function responsePrefixes(headers: Readonly<Record<string, unknown>>): readonly HeaderPrefix[] {
  let stack = false;
  let hexclave = false;
  for (const name in headers) {
    if (name.startsWith('x-stack-')) stack = true;
    else if (name.startsWith('x-hexclave-')) hexclave = true;
  }
  if (stack === hexclave) return BOTH;
  return stack ? STACK_ONLY : HEXCLAVE_ONLY;
}

/** Headers the browser may read on cross-origin responses (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts). */
export const EXPOSED_HEADERS =
  'content-type, x-stack-actual-status, x-stack-known-error, x-hexclave-actual-status, x-hexclave-known-error, x-stack-request-id, x-hexclave-request-id, retry-after';

/** An operation response as the protocol puts it on the wire, before any transport writes it. */
export interface RenderedResponse {
  status: number;
  /** Lowercase names, in the order they are set (later ones replace earlier ones). */
  headers: Record<string, string>;
  /** The body text; '' for a streamed reply (written by the transport as it comes). */
  body: string;
}

/**
 * Renders an operation response for a request with `requestHeaders` (lowercase names):
 * known-error headers under the request's prefixes ({@link responsePrefixes}), the error-status
 * override (a 4xx answered as 200 with `x-stack-actual-status`, upstream
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx), `cache-control: no-store` unless the
 * operation set its own, and pretty JSON for browsers (`Accept: text/html`).
 */
export function renderResponse(
  requestHeaders: Readonly<Record<string, string | string[] | undefined>>,
  response: OperationResponse,
): RenderedResponse {
  const get = (name: string): string => {
    const value = requestHeaders[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
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
    try {
      body = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      /* leave as is */
    }
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
