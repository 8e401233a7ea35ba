/**
 * Finds hand-written API method + path strings in a source text (test/routes/routes.test.ts):
 * a method literal followed by a path (`'GET', '/users/me'`), or a string or template literal
 * whose text is the path of an API operation with at least two segments (`/users/${id}`,
 * `/auth/password/sign-in`), also inside a URL after `/api/v1`; a `${…}` stands for any one path
 * parameter.
 */
export interface RouteLike {
  readonly method: string;
  readonly path: string;
}

const METHOD_AND_PATH = /['"`](GET|POST|PUT|PATCH|DELETE)['"`]\s*,\s*['"`]\//g;
const LITERAL = /'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`\\]*)`/g;

/** A matcher per operation path: `:name` matches one segment or one `${…}`; query strings are ignored. */
function matchers(routes: readonly RouteLike[]): RegExp[] {
  return routes
    .filter((r) => r.path.split('/').filter(Boolean).length >= 2)
    .map(
      (r) =>
        new RegExp(
          `^${r.path
            .split('/')
            .map((seg) => (seg.startsWith(':') ? '(?:[^/?${}]+|\\$\\{[^}]*\\})' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/')}/?(?:\\?.*)?$`,
        ),
    );
}

/** `text` without block comments and line comments (a `//` after a space or at a line's start). */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** The offending snippets of `source` (empty when clean); comments are not read. */
export function handWrittenRoutes(source: string, routes: readonly RouteLike[]): string[] {
  const text = stripComments(source);
  const found: string[] = [];
  for (const m of text.matchAll(METHOD_AND_PATH)) found.push(text.slice(m.index, m.index + 60).split('\n')[0]!);
  const res = matchers(routes);
  for (const m of text.matchAll(LITERAL)) {
    const literal = m[1] ?? m[2] ?? m[3] ?? '';
    // A URL under the API prefix counts from the prefix on (`${base}/api/v1/users/me`).
    const at = literal.indexOf('/api/v1/');
    const value = at >= 0 ? literal.slice(at + '/api/v1'.length) : literal;
    if (value.startsWith('/') && res.some((re) => re.test(value))) found.push(m[0]);
  }
  return found;
}
