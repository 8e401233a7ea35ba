import { COOKIE_BRIDGE_HEADER, REFRESH_PLACEHOLDER_PREFIX } from '../core/protocol/cookie-bridge.ts';
/** One API request, path relative to `/api/v1` (e.g. `/users/me`). */
export interface TransportRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The raw answer: status, headers (lower-case names) and body text. */
export interface TransportResponse {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

/**
 * Sends one request. A rejected promise means a network failure (retried for idempotent calls).
 * `urlFor`, when set, names the full URL a path goes to, for error messages (issue 20 item 14:
 * "SDK errors show the full URL, not a path").
 */
export type Transport = ((request: TransportRequest) => Promise<TransportResponse>) & { urlFor?: (path: string) => string };

/** The full URL `transport` sends `path` to (the path itself for a transport that does not say). */
export function transportUrl(transport: Transport, path: string): string {
  return transport.urlFor?.(path) ?? path;
}

/** Options of {@link httpTransport}. */
export interface HttpTransportOptions {
  /**
   * `true` (Gatehouse's own pages only): every request sends {@link COOKIE_BRIDGE_HEADER} and
   * same-origin cookies, so the server keeps the refresh token in an HttpOnly cookie and the page
   * sees a placeholder. `'placeholder'` (the default): only a request that carries such a
   * placeholder does (an app on the same origin as the hosted pages, using their session); others
   * are sent as the official SDK sends them.
   */
  cookieBridge?: boolean | 'placeholder';
}

/**
 * HTTP transport over `fetch` to `${baseUrl}/api/v1${path}` (a trailing `/` of `baseUrl` is
 * dropped, so path prefixes work). `credentials: 'omit'`, `cache: 'no-store'` as the official SDK;
 * a bridged request (see `cookieBridge`) has `credentials: 'same-origin'` and the bridge header.
 */
export function httpTransport(baseUrl: string, fetchImpl: typeof fetch, options: HttpTransportOptions = {}): Transport {
  const base = baseUrl.replace(/\/+$/, '');
  const mode = options.cookieBridge ?? 'placeholder';
  const send: Transport = async (request) => {
    const bridge =
      mode === true ||
      (mode === 'placeholder' &&
        (request.body?.includes(REFRESH_PLACEHOLDER_PREFIX) ||
          Object.values(request.headers).some((v) => v.includes(REFRESH_PLACEHOLDER_PREFIX))));
    const res = await fetchImpl(`${base}/api/v1${request.path}`, {
      method: request.method,
      headers: bridge ? { ...request.headers, [COOKIE_BRIDGE_HEADER]: '1' } : request.headers,
      body: request.body,
      credentials: bridge ? 'same-origin' : 'omit',
      cache: 'no-store',
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  send.urlFor = (path) => {
    const url = `${base}/api/v1${path}`;
    // A relative base (the page's own origin) is named with that origin.
    const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
    return /^[a-z][a-z0-9+.-]*:/i.test(url) || !origin || origin === 'null' ? url : new URL(url, origin).toString();
  };
  return send;
}
