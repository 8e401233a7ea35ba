import { createHash } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import {
  COOKIE_BRIDGE_HEADER,
  HOSTED_REFRESH_COOKIE_MAX_AGE_S,
  httpOnlyRefreshCookieName,
  REFRESH_PLACEHOLDER_PREFIX,
} from '../../core/protocol/cookie-bridge.ts';

const PLACEHOLDER_RE = /gatehouse-httponly-cookie\.([0-9a-f]{16})/g;
const COOKIE_PREFIX = httpOnlyRefreshCookieName('');

/**
 * The placeholder that stands for `refreshToken` on Gatehouse's own pages: REFRESH_PLACEHOLDER_PREFIX
 * and the first 16 hex digits of the token's SHA-256 (so the server can tell which session a
 * placeholder names, and the SDK's cookie poll sees a new value on a new session).
 */
export function refreshPlaceholder(refreshToken: string): string {
  return REFRESH_PLACEHOLDER_PREFIX + createHash('sha256').update(refreshToken).digest('hex').slice(0, 16);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The parts of an API request the bridge reads and rewrites (answer.ts ApiRequest). */
export interface BridgedRequest {
  method: string;
  /** The path as sent, without the query string. */
  pathname: string;
  /** Lowercase names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** `https` when the request came over TLS (node:http) or an https URL (fetch). */
  protocol: 'http' | 'https';
  readBody(): Promise<Buffer>;
  /** The body as it arrives; dropped once the bridge has read the body. */
  bodyStream?(): AsyncIterable<Uint8Array> | null;
}

/** What the bridge does to the answer once the operation ran: status, headers and body in, changed in place. */
export type BridgeFinish = (answer: { status: number; headers: Record<string, string>; text: string }) => void;

/**
 * Whether a request may use the bridge: it carries COOKIE_BRIDGE_HEADER (which a cross-site form
 * cannot send, and a cross-site script only after a CORS preflight that never allows
 * credentials), its `Sec-Fetch-Site`, when sent, is `same-origin`, and its `Origin`, when sent, is
 * this server's (the request's own origin or the base URL's).
 */
export function isBridgeRequest(request: Pick<BridgedRequest, 'headers' | 'protocol'>, baseUrl: string): boolean {
  const { headers } = request;
  if (headers[COOKIE_BRIDGE_HEADER] !== '1') return false;
  const site = headers['sec-fetch-site'];
  if (site && site !== 'same-origin') return false;
  const origin = headers.origin;
  if (origin && origin !== `${request.protocol}://${headers.host ?? ''}` && origin !== originOf(baseUrl)) return false;
  return true;
}

/**
 * The same-origin cookie bridge of Gatehouse's own pages (docs/security.md "Cookies"), applied by
 * answer.ts to a bridge request ({@link isBridgeRequest}); returns null for any other request
 * (apps using the SDK on their own origin), which passes untouched. For a bridge request:
 * - placeholders in the request's headers (`x-stack-refresh-token`…) and body (JSON, or the
 *   `refresh_token` form field of `/auth/oauth/token`) become the refresh token of the HttpOnly
 *   cookie `gatehouse-refresh-<projectId>` whose hash they name (others stay as they are, and
 *   fail as an unknown refresh token): the returned `request` reads them so;
 * - `finish` then sets that cookie (HttpOnly, SameSite=Lax, Path=/, 30 days, Secure over https)
 *   on a 2xx client-access answer (or an `/auth/oauth/token` answer) whose JSON body has a
 *   `refresh_token`, which carries the placeholder instead; `DELETE /auth/sessions/current`
 *   (sign-out) clears the cookie.
 *
 * @param route the path under the API prefix (`/auth/oauth/token`).
 */
export async function openCookieBridge<R extends BridgedRequest>(
  request: R,
  route: string,
  baseUrl: string,
): Promise<{ request: R; finish: BridgeFinish } | null> {
  if (!isBridgeRequest(request, baseUrl)) return null;
  const jar = parseCookies(request.headers.cookie ?? '');
  const tokens = new Map<string, string>();
  for (const [name, value] of Object.entries(jar)) {
    if (name.startsWith(COOKIE_PREFIX) && value) tokens.set(refreshPlaceholder(value), value);
  }
  const swap = (text: string) => text.replace(PLACEHOLDER_RE, (placeholder) => tokens.get(placeholder) ?? placeholder);
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = name !== 'cookie' && value !== undefined && value.includes(REFRESH_PLACEHOLDER_PREFIX) ? swap(value) : value;
  }
  const { method } = request;
  let body: Buffer | null = null;
  let form: URLSearchParams | null = null;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    const raw = await request.readBody();
    const text = raw.toString('utf8');
    body = text.includes(REFRESH_PLACEHOLDER_PREFIX) ? Buffer.from(swap(text), 'utf8') : raw;
    if ((headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded')
      form = new URLSearchParams(body.toString('utf8'));
  }
  const kept = body;
  const bridged: R = kept === null ? { ...request, headers } : { ...request, headers, readBody: async () => kept, bodyStream: undefined };
  const projectId = headers['x-stack-project-id'] || form?.get('client_id') || '';
  const secure = baseUrl.startsWith('https:') || request.protocol === 'https';
  const cookie = (value: string, maxAge: number) =>
    serializeCookie(httpOnlyRefreshCookieName(projectId), value, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge });
  const finish: BridgeFinish = (answer) => {
    if (!projectId) return;
    if (method === 'DELETE' && route === '/auth/sessions/current') {
      answer.headers['set-cookie'] = cookie('', 0);
      return;
    }
    const issuing = route === '/auth/oauth/token' || headers['x-stack-access-type'] === 'client';
    if (!issuing || answer.status < 200 || answer.status >= 300 || !answer.text.includes('"refresh_token"')) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
    const record = parsed as Record<string, unknown>;
    const token = record.refresh_token;
    if (typeof token !== 'string' || token.startsWith(REFRESH_PLACEHOLDER_PREFIX)) return;
    answer.headers['set-cookie'] = cookie(token, HOSTED_REFRESH_COOKIE_MAX_AGE_S);
    answer.text = JSON.stringify({ ...record, refresh_token: refreshPlaceholder(token) });
  };
  return { request: bridged, finish };
}
