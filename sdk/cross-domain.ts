import { RETURN_TO_PARAM, isTrustedUrl } from './redirect.ts';

/**
 * Stack's cross-domain hand-off, as the official SDK drives it (upstream
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/apps/implementations/redirect-page-urls.ts): an app on
 * another origin sends the user to the hosted sign-in page with `after_auth_return_to` (its own
 * OAuth callback URL) and `<prefix>_cross_domain_state`, `…_code_challenge` and
 * `…_after_callback_redirect_url`; after signing in, the hosted page asks
 * `POST /auth/oauth/cross-domain/authorize` for a one-time code bound to that PKCE challenge and
 * sends the browser to the callback with `code` and `state`, where the app redeems it at
 * `/auth/oauth/token` with its verifier. `@stackframe/js` 2.8.102 names the parameters `stack_…`,
 * 2.8.108 `hexclave_…`; both are read.
 */
export const CROSS_DOMAIN_PARAM_PREFIXES = ['stack', 'hexclave'] as const;

type HandoffKey = 'state' | 'code_challenge' | 'after_callback_redirect_url';

function param(params: URLSearchParams, key: HandoffKey): string | null {
  for (const prefix of CROSS_DOMAIN_PARAM_PREFIXES) {
    const value = params.get(`${prefix}_cross_domain_${key}`);
    if (value !== null) return value;
  }
  return null;
}

/** What the hosted page sends to `POST /auth/oauth/cross-domain/authorize`. */
export interface CrossDomainHandoff {
  /** The app's callback URL (absolute, on another origin): `after_auth_return_to`. */
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** Where the app goes after redeeming the code. */
  afterCallbackRedirectUrl: string;
}

/**
 * The hand-off a page at `href` was asked for, or null: `after_auth_return_to` must be an
 * absolute http(s) URL on another origin, and the state and code challenge must be present (on
 * the page's URL or, as upstream also reads them, on the return URL). The after-callback URL
 * defaults to the page itself, as upstream. Trust is not decided here: the server checks both
 * URLs against the project's trusted domains.
 */
export function crossDomainHandoffFrom(href: string): CrossDomainHandoff | null {
  let current: URL;
  try {
    current = new URL(href);
  } catch {
    return null;
  }
  const returnTo = current.searchParams.get(RETURN_TO_PARAM);
  if (!returnTo || !/^https?:\/\//i.test(returnTo)) return null;
  let target: URL;
  try {
    target = new URL(returnTo);
  } catch {
    return null;
  }
  if (target.origin === current.origin) return null;
  const state = param(current.searchParams, 'state') ?? param(target.searchParams, 'state');
  const codeChallenge = param(current.searchParams, 'code_challenge') ?? param(target.searchParams, 'code_challenge');
  if (!state || !codeChallenge) return null;
  const afterCallbackRedirectUrl =
    param(current.searchParams, 'after_callback_redirect_url') ??
    param(target.searchParams, 'after_callback_redirect_url') ??
    current.toString();
  return { redirectUri: target.toString(), state, codeChallenge, afterCallbackRedirectUrl };
}

/**
 * Why a page at `href` will not follow its `after_auth_return_to`, or null when it will (absent,
 * trusted, or a cross-domain hand-off, which the server checks): `invalid` (not a web address)
 * or `untrusted` with the origin it names. Hosted pages show this instead of dropping the
 * address silently.
 */
export function returnToProblem(
  href: string,
  trustedOrigins: readonly string[],
): { kind: 'invalid' } | { kind: 'untrusted'; origin: string } | null {
  let current: URL;
  try {
    current = new URL(href);
  } catch {
    return null;
  }
  const returnTo = current.searchParams.get(RETURN_TO_PARAM);
  if (!returnTo || isTrustedUrl(returnTo, trustedOrigins)) return null;
  if (crossDomainHandoffFrom(href)) return null;
  if (/\s/.test(returnTo) || !/^https?:\/\//i.test(returnTo)) return { kind: 'invalid' };
  try {
    return { kind: 'untrusted', origin: new URL(returnTo).origin };
  } catch {
    return { kind: 'invalid' };
  }
}
