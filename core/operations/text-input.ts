/** At most this many problems are listed; a body full of them needs no longer message. */
const MAX_PROBLEMS = 100;

/** A lone UTF-16 surrogate: half of a pair without the other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which is not accepted';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text (it contains an unpaired surrogate)';
  return null;
}

/** A key as it may appear in a message: NUL and surrogates written as escapes. */
function printable(key: string): string {
  return key.replace(/[\u0000\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Lists the strings and object keys in one request part that Gatehouse refuses as text, as
 * SCHEMA_ERROR problem lines naming each (`body.display_name contains a NUL character …`):
 *
 * - NUL (U+0000): PostgreSQL's text types cannot hold it (`invalid byte sequence for encoding
 *   "UTF8": 0x00`, a 500 before this check) while SQLite can, so one rule for both dialects.
 * - Unpaired UTF-16 surrogates (only expressible as `\ud800`-style JSON escapes): not Unicode
 *   text; encoded to UTF-8 they silently become U+FFFD, and PostgreSQL's JSON refuses them.
 *
 * One generic check at the validation edge (STYLE.md "Validate at the edge, once") instead of
 * one per field. Walks plain objects and arrays without recursion; buffers are not text.
 * Issue 12 finding 8.
 */
export function findUnstorableText(value: unknown, root: string): string[] {
  const problems: string[] = [];
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) problems.push(`${path} ${problem}`);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${path}[${i}]`]);
    } else if (isPlainContainer(current)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const childPath = `${path}.${printable(key)}`;
        const keyProblem = problemOf(key);
        if (keyProblem) problems.push(`${childPath}: the property name ${keyProblem}`);
        stack.push([child, childPath]);
      }
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}
