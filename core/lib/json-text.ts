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
 * levels, and rows stored before input depth was bounded (issue 12 finding 5) may hold such
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
    if (typeof item === 'string') { out.push(item); continue; }
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
