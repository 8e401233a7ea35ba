import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress, PRIVATE_ADDRESS_ERROR, publicOnlyLookup } from './outbound.ts';

/**
 * `fetch` for URLs a tenant chose (an OpenID provider's issuer and the endpoints its discovery
 * document names), with the outbound guard of core/lib/outbound.ts: a host whose address (an IP
 * literal, or any address its name resolves to) is loopback, link-local or private is refused
 * with `code` EPRIVATEADDRESS, and the socket connects to the address that was checked (no DNS
 * rebinding). Redirects are never followed.
 */

/** Which hosts may be private: none in production mode, except those the operator lists. */
export interface OutboundFetchPolicy {
  /** True when `hostname` (lower-case, IPv6 without brackets) may resolve to a private address. */
  allowPrivate(hostname: string): boolean;
  /** Largest response body read, in bytes (default 1 MiB); beyond it the request fails. */
  maxBytes?: number;
}

/** Thrown when a tenant-chosen URL would reach a refused network (`code` EPRIVATEADDRESS). */
export function isPrivateAddressError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === PRIVATE_ADDRESS_ERROR) return true;
  }
  return false;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function refused(): Error {
  return Object.assign(new Error('the host resolves to a loopback, link-local or private address, which is refused in production mode'), {
    code: PRIVATE_ADDRESS_ERROR,
  });
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

async function bodyBytes(body: unknown): Promise<Buffer | null> {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(String(body));
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer());
}

/**
 * A `fetch`-compatible function (what oauth4webapi's `customFetch` and Gatehouse's provider
 * resource reads call) that applies `policy` to every request. Hosts the policy lets through go
 * to the global `fetch` unchanged.
 *
 * @throws Error with `code` EPRIVATEADDRESS (refused), or the connection's own error.
 */
export function guardedFetch(policy: OutboundFetchPolicy): (input: string | URL, init?: RequestInit) => Promise<Response> {
  const maxBytes = policy.maxBytes ?? DEFAULT_MAX_BYTES;
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (policy.allowPrivate(host)) return fetch(url, init);
    if (isIP(host) && isPrivateAddress(host)) throw refused();
    return fetchThroughNode(url, init, { maxBytes, lookup: isIP(host) ? undefined : publicOnlyLookup });
  };
}

/**
 * One HTTP(S) request with node:http, answered as a `Response` (body read whole, at most
 * `maxBytes`; redirects returned, not followed). `lookup` resolves the host (publicOnlyLookup
 * for the guard). Exported for its tests.
 */
export async function fetchThroughNode(
  url: URL,
  init: RequestInit,
  options: { maxBytes: number; lookup?: typeof publicOnlyLookup },
): Promise<Response> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
  const body = await bodyBytes(init.body);
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  if (body) headers['content-length'] = String(body.length);
  return new Promise<Response>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: init.method ?? 'GET', headers, ...(options.lookup ? { lookup: options.lookup } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          reject(new Error(`response larger than ${options.maxBytes} bytes`));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        const status = res.statusCode ?? 502;
        resolve(
          new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), {
            status,
            statusText: res.statusMessage ?? '',
            headers: toHeaders(res.headers),
          }),
        );
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    const signal = init.signal;
    if (signal) {
      if (signal.aborted) req.destroy(signal.reason as Error);
      else signal.addEventListener('abort', () => req.destroy(signal.reason as Error), { once: true });
    }
    req.end(body ?? undefined);
  });
}
