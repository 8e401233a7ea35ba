/** At most this many problems are listed; a body full of them needs no longer message. */
const MAX_PROBLEMS = 100;

/**
 * Deepest nesting of objects and arrays accepted in a request part (the part itself is level
 * 0, `{"a": {}}` reaches level 1). Upstream sets none; recursive code (validation, unknown-key
 * listing, JSON.stringify) overflowed the stack on bodies a few thousand levels deep (issue 12
 * finding 5). Metadata fields have their own, lower bound (core/lib/schemas.ts).
 */
export const MAX_INPUT_DEPTH = 64;

/** A lone UTF-16 surrogate: half of a pair without the other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which is not accepted';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text (it contains an unpaired surrogate)';
  return null;
}

/** A key as it may appear in a message: NUL and surrogates written as escapes. */
function printable(key: string): string {
  return key.replace(/[\u0000\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Lists what Gatehouse refuses in one request part before any schema sees it, as SCHEMA_ERROR
 * problem lines naming the place (`body.display_name contains a NUL character …`):
 *
 * - NUL (U+0000) in a string or key: PostgreSQL's text types cannot hold it (`invalid byte
 *   sequence for encoding "UTF8": 0x00`, a 500 before this check) while SQLite can; one rule
 *   for both dialects.
 * - Unpaired UTF-16 surrogates (only expressible as `\ud800`-style JSON escapes): not Unicode
 *   text; encoded to UTF-8 they silently become U+FFFD (finding 8).
 * - Nesting deeper than MAX_INPUT_DEPTH (finding 5).
 *
 * One generic check at the validation edge (validate at the edge, once) instead of
 * one per field. Walks plain objects and arrays with an explicit stack, never below the depth
 * bound; buffers (octet-stream bodies) are not text and are skipped.
 */
export function findInputProblems(value: unknown, root: string): string[] {
  const problems: string[] = [];
  const stack: Array<[unknown, string, number]> = [[value, root, 0]];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const [current, path, depth] = stack.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) problems.push(`${path} ${problem}`);
      continue;
    }
    const isArray = Array.isArray(current);
    if (!isArray && !isPlainObject(current)) continue;
    if (depth >= MAX_INPUT_DEPTH) {
      problems.push(`${path} is nested too deeply: at most ${MAX_INPUT_DEPTH} levels of objects and arrays are accepted`);
      break;
    }
    if (isArray) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${path}[${i}]`, depth + 1]);
      continue;
    }
    const entries = Object.entries(current as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const childPath = `${path}.${printable(key)}`;
      const problem = textProblem(key);
      if (problem) problems.push(`${childPath}: the property name ${problem}`);
      stack.push([child, childPath, depth + 1]);
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}
