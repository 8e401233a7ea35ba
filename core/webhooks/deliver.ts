import { isIP } from 'node:net';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isPrivateAddress, publicOnlyLookup } from '../lib/outbound.ts';

/** How long one delivery attempt may take, connect to last byte, in ms (Svix uses 15 s). */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** How much of a response body the delivery log keeps, in characters. */
export const RESPONSE_EXCERPT_CHARS = 1_000;

/** The outcome of one POST. `statusCode` null when no HTTP answer came (refused, timeout, blocked). */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  responseExcerpt: string | null;
  durationMs: number;
  error: string | null;
}

/**
 * POSTs the JSON `body` to `url` with `headers` (the signature headers, signing.ts), as
 * `application/json` from user agent `Gatehouse-Webhooks/1`. 2xx is success (Standard Webhooks); redirects are not
 * followed. With `blockPrivate` (production mode) the connection is refused when the name
 * resolves to a private, loopback or link-local address — checked on the address actually
 * connected to, so DNS rebinding cannot bypass it. Never throws.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  blockPrivate: boolean,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<AttemptOutcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, durationMs: Date.now() - started });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish({ ok: false, statusCode: null, responseExcerpt: null, error: 'invalid URL' });
      return;
    }
    // An IP literal never reaches the lookup: check it here (core/lib/outbound.ts).
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (blockPrivate && isIP(literal) && isPrivateAddress(literal)) {
      finish({
        ok: false,
        statusCode: null,
        responseExcerpt: null,
        error: 'the endpoint is a loopback, link-local or private address, which is refused in production mode',
      });
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Gatehouse-Webhooks/1',
          ...headers,
          'content-length': String(Buffer.byteLength(body)),
        },
        timeout: timeoutMs,
        ...(blockPrivate ? { lookup: publicOnlyLookup } : {}),
      },
      (res) => {
        let excerpt = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (excerpt.length < RESPONSE_EXCERPT_CHARS) excerpt += chunk;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          finish({
            ok: status >= 200 && status < 300,
            statusCode: status,
            responseExcerpt: excerpt.slice(0, RESPONSE_EXCERPT_CHARS) || null,
            error: null,
          });
        });
        res.on('error', (e) => finish({ ok: false, statusCode: res.statusCode ?? null, responseExcerpt: null, error: e.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', (e) => finish({ ok: false, statusCode: null, responseExcerpt: null, error: describe(e) }));
    req.on('close', () => clearTimeout(timer));
    req.end(body);
  });
}

/** Connection errors in plain words, without echoing anything the remote side sent. */
function describe(error: Error & { code?: string }): string {
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND') return 'host not found';
  if (error.code === 'ECONNRESET') return 'connection reset';
  return error.message;
}
