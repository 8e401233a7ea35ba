import type { SdkEnvironment } from './env.ts';
import { GatehouseConfigError } from './errors.ts';

/** Default handler base path (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts). */
export const DEFAULT_HANDLER_PATH = '/handler';
/** After a redirect the client waits this long (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx): 2000 ms. */
export const REDIRECT_WAIT_MS = 2000;
/** The query parameter carrying where to go after sign-in / sign-up. */
export const RETURN_TO_PARAM = 'after_auth_return_to';

/** Every route of upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx, as relative URLs. */
export interface HandlerUrls {
  handler: string;
  home: string;
  signIn: string;
  signUp: string;
  signOut: string;
  afterSignIn: string;
  afterSignUp: string;
  afterSignOut: string;
  emailVerification: string;
  passwordReset: string;
  forgotPassword: string;
  oauthCallback: string;
  magicLinkCallback: string;
  accountSettings: string;
  error: string;
  teamInvitation: string;
  mfa: string;
  cliAuthConfirm: string;
}

/** Sub-path of each handler route. */
export const HANDLER_ROUTES = {
  signIn: 'sign-in',
  signUp: 'sign-up',
  signOut: 'sign-out',
  emailVerification: 'email-verification',
  passwordReset: 'password-reset',
  forgotPassword: 'forgot-password',
  oauthCallback: 'oauth-callback',
  magicLinkCallback: 'magic-link-callback',
  accountSettings: 'account-settings',
  error: 'error',
  teamInvitation: 'team-invitation',
  mfa: 'mfa',
  cliAuthConfirm: 'cli-auth-confirm',
} as const;

/**
 * Resolves the app's URLs (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx): handler routes under `handler` (default `/handler`,
 * must start with `/`), home `/`, after-sign-in home, after-sign-up the after-sign-in URL,
 * after-sign-out home; any route can be overridden.
 */
export function resolveUrls(overrides: Partial<HandlerUrls> = {}): HandlerUrls {
  const handler = (overrides.handler ?? DEFAULT_HANDLER_PATH).replace(/\/+$/, '') || '/';
  if (!handler.startsWith('/')) throw new GatehouseConfigError('Handler path must start with /');
  const sub = (p: string) => `${handler === '/' ? '' : handler}/${p}`;
  const home = overrides.home ?? '/';
  const afterSignIn = overrides.afterSignIn ?? home;
  const routes = Object.fromEntries(Object.entries(HANDLER_ROUTES).map(([k, p]) => [k, sub(p)])) as Record<
    keyof typeof HANDLER_ROUTES,
    string
  >;
  return {
    ...routes,
    handler,
    home,
    afterSignIn,
    afterSignUp: overrides.afterSignUp ?? afterSignIn,
    afterSignOut: overrides.afterSignOut ?? home,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  } as HandlerUrls;
}

/** True when `url` is a relative (same-origin) URL: starts with one `/`, no scheme, no spaces. */
export function isRelativeUrl(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\') && !/\s/.test(url);
}

/** True when `url` is relative, or absolute on one of `trustedOrigins` (e.g. `https://app.example.com`). */
export function isTrustedUrl(url: string, trustedOrigins: readonly string[] = []): boolean {
  if (isRelativeUrl(url)) return true;
  if (/\s/.test(url) || !/^https?:\/\//i.test(url)) return false;
  try {
    return trustedOrigins.includes(new URL(url).origin);
  } catch {
    return false;
  }
}

/**
 * Throws unless `url` is relative (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx "Redirect targets must be relative"), or on
 * one of `trustedOrigins` (the hosted pages pass the project's trusted domains).
 */
export function assertTrustedRedirect(url: string, trustedOrigins: readonly string[] = []): string {
  if (!isTrustedUrl(url, trustedOrigins))
    throw new GatehouseConfigError(`Redirect URL ${JSON.stringify(url)} is not trusted; it should be relative.`);
  return url;
}

/** Appends `after_auth_return_to=<current>` to a sign-in or sign-up URL. */
export function withReturnTo(url: string, current: string): string {
  const sep = url.includes('?') ? '&' : '?';
  return `${url}${sep}${RETURN_TO_PARAM}=${encodeURIComponent(current)}`;
}

/**
 * `url` with the parameters of the current page's query string (`search`) that say where to go
 * after signing in: `after_auth_return_to` and Stack's cross-domain hand-off (`state`,
 * `code_challenge`, `after_callback_redirect_url`; sdk/cross-domain.ts). Used when sign-in
 * continues on another page (the MFA step), so the return page is not lost on the way.
 */
export function withAuthParams(url: string, search: string): string {
  const from = new URLSearchParams(search);
  const carried = [RETURN_TO_PARAM, 'state', 'code_challenge', 'after_callback_redirect_url']
    .filter((name) => from.has(name))
    .map((name) => `${name}=${encodeURIComponent(from.get(name)!)}`);
  if (carried.length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${carried.join('&')}`;
}

/** The trusted `after_auth_return_to` of a query string, or null (absent or untrusted). */
export function returnToFrom(search: string, trustedOrigins: readonly string[] = []): string | null {
  const value = new URLSearchParams(search).get(RETURN_TO_PARAM);
  return value && isTrustedUrl(value, trustedOrigins) ? value : null;
}

/** How the app navigates: not at all, `window.location`, Next.js (treated as window), or custom. */
export type RedirectMethod = 'none' | 'window' | 'nextjs' | { navigate: (url: string) => void | Promise<void> };

/**
 * Navigates to a trusted relative URL with the configured method, then waits 2 s (the page is
 * being replaced; callers should not continue). Mode `none` does nothing and does not wait.
 */
export async function performRedirect(
  method: RedirectMethod,
  url: string,
  env: Pick<SdkEnvironment, 'sleep'>,
  trustedOrigins: readonly string[] = [],
): Promise<void> {
  assertTrustedRedirect(url, trustedOrigins);
  if (method === 'none') return;
  if (typeof method === 'object') {
    await method.navigate(url);
  } else {
    const loc = (globalThis as { location?: { assign(u: string): void } }).location;
    if (!loc)
      throw new GatehouseConfigError('No redirect method: running outside a browser, set redirectMethod to "none" or a navigate function.');
    loc.assign(url);
  }
  await env.sleep(REDIRECT_WAIT_MS);
}
