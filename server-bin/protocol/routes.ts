import Router from '@koa/router';
import type { AnyOperation } from '../../core/index.ts';

/** API prefixes served; `/api/latest/X` behaves exactly like `/api/v1/X` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/). */
export const API_PREFIXES = ['/api/v1', '/api/latest'] as const;

/** The plain-text answer to an unknown `/api/` path. */
export const NOT_FOUND_TEXT = "404 — this page does not exist in Stack Auth's API. This server is Gatehouse, which speaks Stack Auth's REST API v1; see the README for the routes it serves.";

/** The operation routes of the API, generated from the registry (served under every prefix). */
export interface ApiRoutes {
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
 * The route table of every operation under the first of {@link API_PREFIXES}; requests under the
 * others reach it through {@link routedApiPath}. Paths are matched by @koa/router's layers
 * (path-to-regexp: case-insensitive, optional trailing slash, decoded parameters; a GET route
 * answers HEAD too), so `find` answers as the router's own `match` would (first registered
 * route whose path and method match), but it tests only the routes that can match: they are grouped by the
 * first segment of their path (lowercase, as the router matches case-insensitively), and a
 * request is tried against its segment's group and the routes whose first segment is a
 * parameter, in registration order. The router walks all 200-odd routes for every request.
 */
export function createApiRoutes(operations: readonly AnyOperation[]): ApiRoutes {
  const router = new Router();
  const prefix = API_PREFIXES[0];
  const entries: Array<{ layer: Layer; op: AnyOperation; segment: string | null }> = [];
  for (const op of operations) {
    const path = op.path === '/' ? prefix : `${prefix}${op.path}`;
    const layer = router.register(path, [op.method], NEVER_CALLED) as unknown as Layer;
    const first = firstSegment(op.path);
    entries.push({ layer, op, segment: first.startsWith(':') ? null : first.toLowerCase() });
  }
  const anySegment = entries.filter((e) => e.segment === null);
  const bySegment = new Map<string, typeof entries>();
  for (const segment of new Set(entries.map((e) => e.segment))) {
    if (segment !== null) bySegment.set(segment, entries.filter((e) => e.segment === segment || e.segment === null));
  }
  return {
    find(method, sentPathname) {
      const pathname = routedApiPath(sentPathname);
      if (pathname.slice(0, prefix.length).toLowerCase() !== prefix) return null;
      const rest = pathname.slice(prefix.length);
      if (rest !== '' && !rest.startsWith('/')) return null;
      const candidates = bySegment.get(firstSegment(rest).toLowerCase()) ?? anySegment;
      const verb = method.toUpperCase();
      for (const { layer, op } of candidates) {
        if (!layer.methods.includes(verb) || !layer.match(pathname)) continue;
        return { op, params: { ...layer.params(pathname, layer.captures(pathname)) } };
      }
      return null;
    },
  };
}

/** The layers only match; requests are served by the transports (server-bin/app.ts, http/api-lane.ts, protocol/dispatch.ts). */
const NEVER_CALLED = (): never => { throw new Error('API routes are served through find()'); };

/** The parts of @koa/router's Layer that `find` uses. */
interface Layer {
  methods: string[];
  match(path: string): boolean;
  captures(path: string): string[];
  params(path: string, captures: string[]): Record<string, string>;
}

/** The first segment of a path under the API prefix: `/users/me` → `users`; `/` and `` → ``. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return path.slice(1, end === -1 ? undefined : end);
}
