import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { COOKIE_BRIDGE_HEADER, HOSTED_REFRESH_COOKIE_MAX_AGE_S, httpOnlyRefreshCookieName, REFRESH_PLACEHOLDER_PREFIX } from '../../core/protocol/cookie-bridge.ts';
import { rewriteBody } from './body.ts';

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
  try { return new URL(url).origin; } catch { return null; }
}

/**
 * Whether a request may use the bridge: it carries COOKIE_BRIDGE_HEADER (which a cross-site form
 * cannot send, and a cross-site script only after a CORS preflight that never allows
 * credentials), its `Sec-Fetch-Site`, when sent, is `same-origin`, and its `Origin`, when sent, is
 * this server's (the request's own origin or the base URL's).
 */
export function isBridgeRequest(ctx: Pick<Koa.Context, 'get' | 'protocol' | 'host'>, baseUrl: string): boolean {
  if (ctx.get(COOKIE_BRIDGE_HEADER) !== '1') return false;
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin') return false;
  const origin = ctx.get('origin');
  if (origin && origin !== `${ctx.protocol}://${ctx.host}` && origin !== originOf(baseUrl)) return false;
  return true;
}

/**
 * The same-origin cookie bridge of Gatehouse's own pages (docs/security.md
 * "Cookies"). For a bridge request ({@link isBridgeRequest}) to `/api/…`:
 * - placeholders in the request's headers (`x-stack-refresh-token`…) and body (JSON, or the
 *   `refresh_token` form field of `/auth/oauth/token`) become the refresh token of the HttpOnly
 *   cookie `gatehouse-refresh-<projectId>` whose hash they name (others stay as they are, and
 *   fail as an unknown refresh token);
 * - a client-access answer (or an `/auth/oauth/token` answer) whose JSON body has a
 *   `refresh_token` sets that cookie (HttpOnly, SameSite=Lax, Path=/, 30 days, Secure over https)
 *   and carries the placeholder instead;
 * - `DELETE /auth/sessions/current` (sign-out) clears the cookie.
 * Other requests (apps using the SDK on their own origin) pass untouched.
 */
export function cookieBridge(baseUrl: string, apiPrefixes: readonly string[]): Koa.Middleware {
  const secureBase = baseUrl.startsWith('https:');
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/api/') || !isBridgeRequest(ctx, baseUrl)) return next();
    const prefix = apiPrefixes.find((p) => ctx.path.startsWith(`${p}/`));
    const route = prefix ? ctx.path.slice(prefix.length) : ctx.path;
    const jar = parseCookies(ctx.get('cookie'));
    const tokens = new Map<string, string>();
    for (const [name, value] of Object.entries(jar)) {
      if (name.startsWith(COOKIE_PREFIX) && value) tokens.set(refreshPlaceholder(value), value);
    }
    const swap = (text: string) => text.replace(PLACEHOLDER_RE, (placeholder) => tokens.get(placeholder) ?? placeholder);
    let form: URLSearchParams | null = null;
    for (const [name, value] of Object.entries(ctx.req.headers)) {
      if (name === 'cookie' || typeof value !== 'string' || !value.includes(REFRESH_PLACEHOLDER_PREFIX)) continue;
      ctx.req.headers[name] = swap(value);
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'OPTIONS') {
      const isForm = ctx.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
      const body = await rewriteBody(ctx.req, (raw) => {
        const text = raw.toString('utf8');
        return text.includes(REFRESH_PLACEHOLDER_PREFIX) ? Buffer.from(swap(text), 'utf8') : raw;
      });
      if (isForm) form = new URLSearchParams(body.toString('utf8'));
    }
    const projectId = ctx.get('x-stack-project-id') || form?.get('client_id') || '';
    const secure = secureBase || ctx.secure;
    const cookie = (value: string, maxAge: number) => serializeCookie(httpOnlyRefreshCookieName(projectId), value, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge });

    await next();

    if (!projectId) return;
    if (ctx.method === 'DELETE' && route === '/auth/sessions/current') {
      ctx.append('set-cookie', cookie('', 0));
      return;
    }
    const issuing = route === '/auth/oauth/token' || ctx.get('x-stack-access-type') === 'client';
    if (!issuing || ctx.status < 200 || ctx.status >= 300 || typeof ctx.body !== 'string' || !ctx.body.includes('"refresh_token"')) return;
    let parsed: unknown;
    try { parsed = JSON.parse(ctx.body); } catch { return; }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
    const record = parsed as Record<string, unknown>;
    const token = record.refresh_token;
    if (typeof token !== 'string' || token.startsWith(REFRESH_PLACEHOLDER_PREFIX)) return;
    ctx.append('set-cookie', cookie(token, HOSTED_REFRESH_COOKIE_MAX_AGE_S));
    ctx.body = JSON.stringify({ ...record, refresh_token: refreshPlaceholder(token) });
  };
}
