/**
 * The cookie-bridge protocol between Gatehouse's own pages (the SDK in the browser) and the
 * server's same-origin cookie bridge: pure data, imported by the host (server-bin/) and the SDK
 * (sdk/transport.ts, sdk/tokens.ts), so neither owns what both must agree on. It imports nothing
 * and no other core file imports it (core stays transport-free; test/architecture/boundaries.test.ts).
 *
 * @see docs/security.md "Cookies"
 */

/**
 * Header by which Gatehouse's own pages (hosted handler pages, dashboard) ask the server's
 * cookie bridge to keep their refresh token in an HttpOnly cookie. A cross-site form cannot send it.
 */
export const COOKIE_BRIDGE_HEADER = 'x-gatehouse-cookie-bridge';

/**
 * What Gatehouse's own pages hold in place of their refresh token (then kept by the server in an
 * HttpOnly cookie): this prefix and 16 hex digits.
 */
export const REFRESH_PLACEHOLDER_PREFIX = 'gatehouse-httponly-cookie.';

/** Refresh-cookie lifetime on Gatehouse's own pages: 30 days, in seconds. */
export const HOSTED_REFRESH_COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;

/**
 * Name of the HttpOnly refresh cookie that the server's cookie bridge sets for Gatehouse's own
 * pages: one per project (`gatehouse-refresh-<projectId>`), never visible to scripts.
 */
export function httpOnlyRefreshCookieName(projectId: string): string {
  return `gatehouse-refresh-${projectId}`;
}
