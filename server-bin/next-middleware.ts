/**
 * Route protection for Next.js middleware (`middleware.ts`, or `proxy.ts` from Next.js 16), with
 * no server code and no Node API, so it runs in the Edge and the Node middleware runtimes alike.
 */

/** What `protectRoutes` needs to know. */
export interface ProtectRoutesOptions {
  /**
   * The app's project id: the session cookie is `stack-refresh-<project id>` (sdk/tokens.ts).
   * When omitted, any Gatehouse session cookie (`stack-refresh-…`) counts.
   */
  projectId?: string;
  /** Where the sign-in page is, e.g. `/auth/handler/sign-in`. */
  signInUrl: string;
  /** Path prefixes that need a signed-in user, e.g. `['/dashboard', '/account']`. */
  protectedPaths: readonly string[];
}

/**
 * Returns a function for Next.js middleware: given the request, a redirect `Response` to the
 * sign-in page (with `after_auth_return_to` set to the page asked for, as the SDK's redirect
 * does, sdk/redirect.ts) when the path is protected and the request has no session cookie;
 * otherwise `undefined` (let it through: `return protect(request) ?? NextResponse.next()`).
 *
 * It checks that a session cookie is present, not that it is valid (no database here): a
 * protected page still reads the user with `getUser()` and treats null as signed out, as
 * upstream's middleware pattern does (docs: "Protecting a page", Next.js middleware).
 */
export function protectRoutes(options: ProtectRoutesOptions): (request: Request) => Response | undefined {
  const isSessionCookie = (name: string) =>
    options.projectId === undefined ? name.startsWith('stack-refresh-') : name === `stack-refresh-${options.projectId}`;
  return (request) => {
    const url = new URL(request.url);
    const path = url.pathname;
    if (!options.protectedPaths.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))) return undefined;
    const cookies = request.headers.get('cookie') ?? '';
    const hasSession = cookies.split(';').some((part) => {
      const [name, ...value] = part.trim().split('=');
      return name !== undefined && isSessionCookie(name) && value.join('=') !== '';
    });
    if (hasSession) return undefined;
    const target = new URL(options.signInUrl, url);
    target.searchParams.set('after_auth_return_to', `${path}${url.search}`);
    return Response.redirect(target, 307);
  };
}
