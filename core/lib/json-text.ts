/**
 * Deepest nesting of objects and arrays accepted in a JSON text parsed from tenant input: the
 * same bound as a request body's (core/operations/input-shape.ts MAX_INPUT_DEPTH), so a JSON
 * text inside a string field cannot carry what the body itself may not.
 */
export const JSON_TEXT_MAX_DEPTH = 64;

/** Why parseJsonText refused a text; `message` is one sentence fit for a 400 answer. */
export class JsonTextError extends Error {
  readonly reason: 'syntax' | 'depth' | 'length';
  constructor(reason: 'syntax' | 'depth' | 'length', message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Nesting depth of a JSON text's objects and arrays (`{"a": []}` is 2), by one pass over the
 * characters: brackets inside strings are skipped. Stops counting once past `limit`.
 */
export function jsonTextDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * The one parser of JSON texts that come from tenant input (a config override string, a stored
 * override, a token segment, a model's tool arguments): refuses a text longer than `maxLength`
 * characters or nested deeper than `maxDepth` before `JSON.parse` builds it, so nothing that
 * walks the value recursively afterwards (validation, merging, rendering, serializing) can
 * overflow the stack.
 *
 * @param limits.maxDepth default JSON_TEXT_MAX_DEPTH; `limits.maxLength` default unbounded (the
 *   caller's field or body bound applies).
 * @throws JsonTextError `syntax` | `depth` | `length`.
 */
export function parseJsonText(text: string, limits: { maxDepth?: number; maxLength?: number } = {}): unknown {
  const maxDepth = limits.maxDepth ?? JSON_TEXT_MAX_DEPTH;
  if (limits.maxLength !== undefined && text.length > limits.maxLength) {
    throw new JsonTextError('length', `The JSON text is too long: at most ${limits.maxLength} characters are accepted`);
  }
  if (jsonTextDepth(text, maxDepth) > maxDepth) {
    throw new JsonTextError('depth', `The JSON text is nested too deeply: at most ${maxDepth} levels of objects and arrays are accepted`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new JsonTextError('syntax', `The JSON text is not valid: ${(error as Error).message}`);
  }
}

/** Metadata columns hold JSON text; null stays null. */
export function toJsonText(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJsonText(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

type Work = string | { value: unknown; key: string };

/**
 * `JSON.stringify(value)` for response bodies, which also serializes values nested deeper than
 * the call stack allows: V8's JSON.stringify recurses and throws RangeError at some thousands of
 * levels, and rows stored before input depth was bounded may hold such
 * metadata. Those fall back to an iterative serializer with the same output for JSON data
 * (plain objects, arrays, strings, finite numbers, booleans, null; `toJSON` honoured; undefined,
 * functions and symbols dropped from objects and written as null in arrays).
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyIteratively(value);
  }
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** The iterative serializer behind stringifyJson (exported for its tests). */
export function stringifyIteratively(root: unknown): string {
  const out: string[] = [];
  const work: Work[] = [{ value: root, key: '' }];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    let value = item.value;
    if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      value = (value as { toJSON(key: string): unknown }).toJSON(item.key);
    }
    if (value === null || typeof value !== 'object') {
      // Scalars cannot recurse; JSON.stringify keeps its exact formatting (and its TypeError on bigint).
      out.push(isSkipped(value) ? 'null' : JSON.stringify(value));
    } else if (Array.isArray(value)) {
      work.push(']');
      for (let i = value.length - 1; i >= 0; i--) {
        work.push({ value: isSkipped(value[i]) ? null : value[i], key: String(i) });
        if (i > 0) work.push(',');
      }
      work.push('[');
    } else {
      const entries = Object.entries(value).filter(([, v]) => !isSkipped(v));
      work.push('}');
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        work.push({ value: child, key });
        work.push(`${JSON.stringify(key)}:`);
        if (i > 0) work.push(',');
      }
      work.push('{');
    }
  }
  return out.join('');
}
