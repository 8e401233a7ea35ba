/** Deepest element nesting a SAML document may have (real responses and metadata nest about 10 deep). */
const MAX_DEPTH = 64;

/** Comments, CDATA sections and processing instructions: their text holds no tags. */
const OPAQUE = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g;
/** A start, end or empty-element tag; attribute values may hold `>`. Unambiguous, so linear. */
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>/g;

/**
 * A linear pre-check of an XML document's tag structure before it reaches the DOM parser, whose
 * error recovery takes quadratic time on unclosed tags (half a megabyte of `<a>` would keep it
 * busy for hours): every end tag closes the innermost open element, every element is closed, and
 * nesting stays within {@link MAX_DEPTH}.
 *
 * @returns what is wrong, or null when the shape is fine
 */
export function xmlShapeProblem(xml: string): string | null {
  const stack: string[] = [];
  for (const match of xml.replace(OPAQUE, '').matchAll(TAG)) {
    const [, closing, name, rest] = match as unknown as [string, string, string, string];
    if (closing) {
      if (stack.pop() !== name) return `unexpected end tag </${name.slice(0, 64)}>`;
    } else if (!rest.endsWith('/')) {
      stack.push(name);
      if (stack.length > MAX_DEPTH) return `elements nested deeper than ${MAX_DEPTH}`;
    }
  }
  return stack.length === 0 ? null : `unclosed element <${stack[stack.length - 1]!.slice(0, 64)}>`;
}
