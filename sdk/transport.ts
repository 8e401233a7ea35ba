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

/** Sends one request. A rejected promise means a network failure (retried for idempotent calls). */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * HTTP transport over `fetch` to `${baseUrl}/api/v1${path}` (a trailing `/` of `baseUrl` is
 * dropped, so path prefixes work). `credentials: 'omit'`, `cache: 'no-store'` as the official SDK.
 */
export function httpTransport(baseUrl: string, fetchImpl: typeof fetch): Transport {
  const base = baseUrl.replace(/\/+$/, '');
  return async (request) => {
    const res = await fetchImpl(`${base}/api/v1${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      credentials: 'omit',
      cache: 'no-store',
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}

