import type { AnyOperation } from '../../core/index.ts';

/** API prefixes served; `/api/latest/X` behaves exactly like `/api/v1/X` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/). */
export const API_PREFIXES = ['/api/v1', '/api/latest'] as const;

/** The plain-text answer to an unknown `/api/` path. */
export const NOT_FOUND_TEXT =
  "404 — this page does not exist in Stack Auth's API. This server is Gatehouse, which speaks Stack Auth's REST API v1; see the README for the routes it serves.";

/** The operation routes of the API, generated from the registry (served under every prefix). */
export interface ApiRoutes {
  /**
   * The operation a request line reaches, with its decoded path parameters, or null. See
   * {@link createApiRoutes} for the matching rules.
   */
  find(method: string, pathname: string): { op: AnyOperation; params: Record<string, string> } | null;
  /**
   * The methods some route answers at this path (sorted; `HEAD` with `GET`), empty when no route
   * has the path: a request with another method then answers 405, as upstream's Next.js route
   * handlers do for a method their route file does not export.
   */
  allowedMethods(pathname: string): string[];
}

/**
 * The path routed for a request path: a path under another prefix of {@link API_PREFIXES}
 * (`/api/latest/X`) is rewritten to the first (`/api/v1/X`); any other path is returned as it
 * is, so each operation is registered once.
 */
export function routedApiPath(pathname: string): string {
  const [routed, ...aliases] = API_PREFIXES;
  for (const alias of aliases) {
    if (pathname === alias || pathname.startsWith(`${alias}/`)) return routed + pathname.slice(alias.length);
  }
  return pathname;
}

/** One path segment of a route: literal text (lowercase) or a named parameter. */
type Segment = { text: string } | { param: string };

interface Route {
  op: AnyOperation;
  methods: readonly string[];
  segments: readonly Segment[];
}

/**
 * The route table of every operation under the first of {@link API_PREFIXES}; requests under the
 * others reach it through {@link routedApiPath}. The matching rules are those Koa's router
 * (@koa/router, path-to-regexp) applied when it served the API, which clients rely on:
 * - the prefix and literal segments compare case-insensitively;
 * - one trailing slash is optional (`/users/me/`);
 * - a `:name` segment matches one non-empty segment, decoded with `decodeURIComponent` (kept as
 *   sent when that fails);
 * - a route declared for GET answers HEAD too;
 * - when two routes match, the one registered first wins (the registry's order).
 * Routes are grouped by their first segment: a request is tried against its segment's group and
 * the routes whose first segment is a parameter, in registration order. routes.test.ts checks
 * every route, method and spelling against @koa/router itself.
 */
export function createApiRoutes(operations: readonly AnyOperation[]): ApiRoutes {
  const prefix = API_PREFIXES[0];
  const routes: Array<Route & { first: string | null }> = operations.map((op) => {
    const segments: Segment[] = op.path
      .split('/')
      .slice(1)
      .filter((s, i, all) => !(s === '' && i === all.length - 1))
      .map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { text: s.toLowerCase() }));
    const first = segments[0];
    return {
      op,
      segments,
      methods: op.method === 'GET' ? ['GET', 'HEAD'] : [op.method],
      first: first === undefined ? '' : 'text' in first ? first.text : null,
    };
  });
  const anyFirst = routes.filter((r) => r.first === null);
  const byFirst = new Map<string, Route[]>();
  for (const route of routes) {
    if (route.first !== null && !byFirst.has(route.first))
      byFirst.set(
        route.first,
        routes.filter((r) => r.first === route.first || r.first === null),
      );
  }
  /** The raw path segments after the prefix, or null when the path is not an API path. */
  const pathParts = (sentPathname: string): string[] | null => {
    const pathname = routedApiPath(sentPathname);
    if (pathname.slice(0, prefix.length).toLowerCase() !== prefix) return null;
    let rest = pathname.slice(prefix.length);
    if (rest.endsWith('/')) rest = rest.slice(0, -1);
    if (rest !== '' && !rest.startsWith('/')) return null;
    return rest === '' ? [] : rest.slice(1).split('/');
  };
  const candidates = (parts: readonly string[]) => byFirst.get((parts[0] ?? '').toLowerCase()) ?? anyFirst;
  return {
    find(method, sentPathname) {
      const parts = pathParts(sentPathname);
      if (!parts) return null;
      const verb = method.toUpperCase();
      for (const route of candidates(parts)) {
        if (!route.methods.includes(verb)) continue;
        const params = matchSegments(route.segments, parts);
        if (params) return { op: route.op, params };
      }
      return null;
    },
    allowedMethods(sentPathname) {
      const parts = pathParts(sentPathname);
      if (!parts) return [];
      const methods = new Set<string>();
      for (const route of candidates(parts)) {
        if (matchSegments(route.segments, parts)) for (const m of route.methods) methods.add(m);
      }
      return [...methods].sort();
    },
  };
}

/** The decoded parameters when `parts` (raw path segments) match `segments`, else null. */
function matchSegments(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if ('text' in segment) {
      if (part.toLowerCase() !== segment.text) return null;
    } else {
      if (part === '') return null;
      params[segment.param] = safeDecode(part);
    }
  }
  return params;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
