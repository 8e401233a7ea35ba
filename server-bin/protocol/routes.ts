import Router, { type RouterMiddleware } from '@koa/router';
import type { AnyOperation } from '../../core/index.ts';

/** API prefixes served; `/api/latest/X` behaves exactly like `/api/v1/X` (upstream apps/backend/src/app/api/latest/). */
export const API_PREFIXES = ['/api/v1', '/api/latest'] as const;

/** The plain-text answer to an unknown `/api/` path. */
export const NOT_FOUND_TEXT = "404 — this page does not exist in Stack Auth's API. This server is Gatehouse, which speaks Stack Auth's REST API v1; see the README for the routes it serves.";

/** The operation routes of the API, generated from the registry (served under every prefix). */
export interface ApiRoutes {
  /** Koa router serving every operation through `handle`. */
  readonly router: Router;
  /**
   * The operation a request line reaches, with its decoded path parameters, matched exactly as
   * the Koa router matches (first registered route wins; case-insensitive; optional trailing
   * slash), or null.
   */
  find(method: string, pathname: string): { op: AnyOperation; params: Record<string, string> } | null;
}

/**
 * The path the router matches for a request path: a path under another prefix of
 * {@link API_PREFIXES} (`/api/latest/X`) is rewritten to the first (`/api/v1/X`); any other path
 * is returned as it is. Routing once under one prefix matches each request against each
 * operation once, not once per prefix.
 */
export function routedApiPath(pathname: string): string {
  const [routed, ...aliases] = API_PREFIXES;
  for (const alias of aliases) {
    if (pathname === alias || pathname.startsWith(`${alias}/`)) return routed + pathname.slice(alias.length);
  }
  return pathname;
}

/**
 * Registers every operation under the first of {@link API_PREFIXES} on one Koa router; requests
 * under the others reach it through {@link routedApiPath} (server-bin/app.ts, and `find`).
 *
 * @param handle serves a matched request in Koa (server-bin/app.ts).
 */
export function createApiRoutes(operations: readonly AnyOperation[], handle: (op: AnyOperation) => RouterMiddleware): ApiRoutes {
  const router = new Router();
  const opOf = new WeakMap<object, AnyOperation>();
  const prefix = API_PREFIXES[0];
  for (const op of operations) {
    const path = op.path === '/' ? prefix : `${prefix}${op.path}`;
    const layer = router.register(path, [op.method], handle(op)) as object;
    opOf.set(layer, op);
  }
  return {
    router,
    find(method, sentPathname) {
      const pathname = routedApiPath(sentPathname);
      const layer = router.match(pathname, method).pathAndMethod.find((l) => opOf.has(l));
      if (!layer) return null;
      return { op: opOf.get(layer)!, params: { ...layer.params(pathname, layer.captures(pathname)) } };
    },
  };
}
