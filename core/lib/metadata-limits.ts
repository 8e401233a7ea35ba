/**
 * Bounds of a metadata field (`client_metadata`, `client_read_only_metadata`, `server_metadata`
 * of users and teams), free of any schema library so the dashboard can check an edit before
 * sending it. core/lib/schemas.ts enforces them on the wire (docs/security.md).
 */

/** Deepest nesting of objects and arrays in one metadata field (`{"a": {}}` is 2 levels). */
export const METADATA_MAX_DEPTH = 32;
/** Longest metadata field, in characters of its JSON text. */
export const METADATA_MAX_LENGTH = 100_000;

/** True when `value` nests objects and arrays at most `max` levels deep (iterative: any input is safe). */
export function isNestedAtMost(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return false;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return true;
}
