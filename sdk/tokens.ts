import type { SdkEnvironment } from './env.ts';
import { GatehouseConfigError } from './errors.ts';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import { HOSTED_REFRESH_COOKIE_MAX_AGE_S, httpOnlyRefreshCookieName } from '../core/protocol/cookie-bridge.ts';

/** A session's tokens (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ "Token store"). */
export interface Tokens {
  accessToken: string | null;
  refreshToken: string | null;
}

/**
 * Where a client keeps its tokens. `get` is synchronous; `subscribe` (optional) reports changes
 * made elsewhere (another tab's cookie write).
 */
export interface TokenStore {
  get(): Tokens;
  set(tokens: Tokens): void;
  subscribe?(listener: () => void): () => void;
}

const EMPTY: Tokens = { accessToken: null, refreshToken: null };

/** Tokens in memory, for Node and tests. */
export function memoryTokenStore(initial: Tokens = EMPTY): TokenStore {
  let tokens = { ...initial };
  const listeners = new Set<() => void>();
  return {
    get: () => tokens,
    set: (next) => {
      tokens = { ...next };
      listeners.forEach((l) => l());
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

/** Refresh-token cookie lifetime: 31536000 s (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts). */
export const REFRESH_COOKIE_MAX_AGE_S = 31_536_000;
/** Access-token cookie lifetime: 86400 s; its value is the JSON pair `[refresh, access]`. */
export const ACCESS_COOKIE_MAX_AGE_S = 86_400;
/**
 * Cookie options of Gatehouse's own pages (hosted handler pages and dashboard): an
 * access cookie per project (`stack-access-<projectId>`, the dashboard's being `…-internal`) and a
 * 30-day refresh cookie, `Secure` on https.
 */
export function hostedCookieOptions(projectId: string): CookieStoreOptions {
  return { accessCookieName: `stack-access-${projectId}`, refreshMaxAgeS: HOSTED_REFRESH_COOKIE_MAX_AGE_S };
}
/** Cookie-stored tokens are polled every 100 ms for changes (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/). */
export const COOKIE_POLL_MS = 100;

/** A minimal `document` for cookies (the browser's, or a test double). */
export interface CookieDocument {
  cookie: string;
}

/** One cookie's decoded value from `document.cookie` (the `cookie` package's parser), or null. */
export function readCookie(doc: CookieDocument, name: string): string | null {
  return parseCookie(doc.cookie)[name] ?? null;
}

/** Options of the cookie store; the defaults are the official SDK's names and lifetimes. */
export interface CookieStoreOptions {
  /** `Secure` attribute (default: on when the page is served over https). */
  secure?: boolean;
  /** Name of the access-token cookie (default `stack-access`, shared by every project, as upstream). */
  accessCookieName?: string;
  /** Lifetime of the refresh-token cookie in seconds (default 1 year). */
  refreshMaxAgeS?: number;
}

/**
 * The tokens held by the cookie store's cookies in a cookie string: `document.cookie`, or a
 * request's `Cookie` header on the server. The refresh token is the HttpOnly bridge cookie
 * (`gatehouse-refresh-<projectId>`, Gatehouse's own pages) when present, else
 * `stack-refresh-<projectId>`; the access token comes from `stack-access` (or the hosted pages'
 * `stack-access-<projectId>`) when its pair names the script-visible refresh value (the token, or
 * the bridge's placeholder).
 */
export function tokensFromCookies(doc: CookieDocument, projectId: string): Tokens {
  const cookies = parseCookie(doc.cookie);
  const visible = cookies[`stack-refresh-${projectId}`] ?? null;
  const refreshToken = cookies[httpOnlyRefreshCookieName(projectId)] ?? visible;
  let accessToken: string | null = null;
  for (const name of [`stack-access-${projectId}`, 'stack-access']) {
    const pair = cookies[name];
    if (!pair || accessToken) continue;
    try {
      const parsed = JSON.parse(pair) as unknown;
      if (Array.isArray(parsed) && visible !== null && parsed[0] === visible && typeof parsed[1] === 'string') accessToken = parsed[1];
    } catch {
      /* a malformed cookie counts as no access token */
    }
  }
  return { accessToken, refreshToken };
}

/**
 * Browser cookie store: `stack-refresh-<projectId>` holds the refresh token for 1 year and
 * `stack-access` holds the JSON pair `[refreshToken, accessToken]` for 1 day (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts).
 * The cookies are polled every 100 ms so another tab's sign-in or sign-out is seen. The cookies
 * are `SameSite=Lax`, `Secure` on https, and readable by script (this SDK sends the refresh token
 * itself). On Gatehouse's own pages the transport's cookie bridge makes the server keep the real
 * refresh token in an HttpOnly cookie: this store then only ever holds the server's placeholder
 * (docs/security.md "Cookies").
 */
export function cookieTokenStore(
  projectId: string,
  env: Pick<SdkEnvironment, 'setInterval'>,
  doc: CookieDocument | undefined = (globalThis as { document?: CookieDocument }).document,
  options: CookieStoreOptions = {},
): TokenStore {
  if (!doc) throw new GatehouseConfigError('The cookie token store needs a browser document; use "memory" on the server.');
  const refreshName = `stack-refresh-${projectId}`;
  const accessName = options.accessCookieName ?? 'stack-access';
  const refreshMaxAge = options.refreshMaxAgeS ?? REFRESH_COOKIE_MAX_AGE_S;
  const secure = options.secure ?? (globalThis as { location?: { protocol?: string } }).location?.protocol === 'https:';
  const read = (): Tokens => {
    // One read of `document.cookie` per call: in a browser each read asks the browser's cookie
    // store (1–2 ms on a slow CPU), and the page reads the tokens several times before its first render.
    const cookies = parseCookie(doc.cookie);
    const refreshToken = cookies[refreshName] ?? null;
    let accessToken: string | null = null;
    const pair = cookies[accessName];
    if (pair) {
      try {
        const parsed = JSON.parse(pair) as unknown;
        if (Array.isArray(parsed) && parsed[0] === refreshToken && typeof parsed[1] === 'string') accessToken = parsed[1];
      } catch {
        /* a malformed cookie counts as no access token */
      }
    }
    return { accessToken, refreshToken };
  };
  const write = (name: string, value: string | null, maxAge: number) => {
    doc.cookie = serializeCookie(name, value ?? '', { maxAge: value === null ? 0 : maxAge, path: '/', sameSite: 'lax', secure });
  };
  let last = JSON.stringify(read());
  const listeners = new Set<() => void>();
  let stop: (() => void) | null = null;
  return {
    get: read,
    set(tokens) {
      write(refreshName, tokens.refreshToken, refreshMaxAge);
      write(
        accessName,
        tokens.refreshToken && tokens.accessToken ? JSON.stringify([tokens.refreshToken, tokens.accessToken]) : null,
        ACCESS_COOKIE_MAX_AGE_S,
      );
      last = JSON.stringify(read());
      listeners.forEach((l) => l());
    },
    subscribe(listener) {
      listeners.add(listener);
      stop ??= env.setInterval(() => {
        const now = JSON.stringify(read());
        if (now !== last) {
          last = now;
          listeners.forEach((l) => l());
        }
      }, COOKIE_POLL_MS);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && stop) {
          stop();
          stop = null;
        }
      };
    },
  };
}

/**
 * Reads the `x-stack-auth` header form: a JSON object `{accessToken, refreshToken}` that a browser
 * sends to the app's own server (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx). Throws when it is not a JSON object.
 */
export function tokensFromAuthHeader(value: string | null | undefined): Tokens {
  if (!value) return { ...EMPTY };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new GatehouseConfigError('Invalid x-stack-auth header: not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new GatehouseConfigError('Invalid x-stack-auth header: the token store header must be a JSON object, not null.');
  const o = parsed as Record<string, unknown>;
  return {
    accessToken: typeof o.accessToken === 'string' ? o.accessToken : null,
    refreshToken: typeof o.refreshToken === 'string' ? o.refreshToken : null,
  };
}

/** The `x-stack-auth` header for tokens: `{ 'x-stack-auth': '{"accessToken":…,"refreshToken":…}' }`. */
export function authHeaderFor(tokens: Tokens): Record<string, string> {
  return { 'x-stack-auth': JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }) };
}

/** What apps accept as `tokenStore`. */
export type TokenStoreInit =
  | 'memory'
  | 'cookie'
  | null
  | TokenStore
  | Tokens
  | { headers: { get(name: string): string | null } | Record<string, string | string[] | undefined> };

/** Builds the store for a `tokenStore` option (null means none: no user session). */
export function resolveTokenStore(init: TokenStoreInit, projectId: string, env: SdkEnvironment): TokenStore | null {
  if (init === null) return null;
  if (init === 'memory') return memoryTokenStore();
  if (init === 'cookie') return cookieTokenStore(projectId, env);
  if ('get' in init && typeof init.get === 'function' && 'set' in init) return init as TokenStore;
  if ('headers' in init) {
    const h = init.headers as { get?: unknown } & Record<string, unknown>;
    const header = (name: string): string | undefined => {
      const raw = typeof h.get === 'function' ? (h.get as (n: string) => string | null)(name) : (h[name] as string | string[] | undefined);
      return (Array.isArray(raw) ? raw[0] : raw) ?? undefined;
    };
    const auth = header('x-stack-auth');
    if (auth) return memoryTokenStore(tokensFromAuthHeader(auth));
    // Without x-stack-auth, the session of the hosted pages and of ClientApp's cookie store on the
    // same site: their cookies arrive in the request's Cookie header.
    const cookie = header('cookie');
    return memoryTokenStore(cookie ? tokensFromCookies({ cookie }, projectId) : tokensFromAuthHeader(undefined));
  }
  if ('accessToken' in init || 'refreshToken' in init) return memoryTokenStore(init as Tokens);
  throw new GatehouseConfigError('Unknown tokenStore option.');
}
