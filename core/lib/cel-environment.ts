import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';

/**
 * The name `matches` calls are evaluated under. cel-js 8 evaluates `string.matches(string)` with
 * JavaScript's backtracking `RegExp` and refuses a second overload of the same signature, so a
 * parsed condition's `matches` calls are renamed to this function, which runs the pattern on
 * RE2 (re2js, a pure-JS port of Go's RE2: linear in the input, no backreferences or lookaround).
 * CEL's own specification gives `matches` RE2 syntax (cel-spec "String functions"), and upstream
 * evaluates sign-up rule regexes with RE2 too.
 */
const LINEAR_MATCHES = 'matches_re2';

/** The comprehension macros of cel-js 8 (macros.js): each runs its body once per list element. */
export const COMPREHENSION_MACROS: ReadonlySet<string> = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

const regexCache = new Map<string, RE2JS>();

/**
 * Compiles `pattern` with RE2 (cached by text, at most 200 kept).
 *
 * @throws RE2JSSyntaxException for a pattern RE2 cannot run (backreference, lookaround, bad syntax).
 */
export function compileLinearRegex(pattern: string): RE2JS {
  let re = regexCache.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    if (regexCache.size >= 200) regexCache.delete(regexCache.keys().next().value!);
    regexCache.set(pattern, re);
  }
  return re;
}

/** cel-js parser limits; the save-time bound passes tighter ones (cel-bounds.ts). */
export interface CelParserLimits {
  maxAstNodes: number;
  maxDepth: number;
  maxListElements: number;
  maxMapEntries: number;
  maxCallArguments: number;
}

/**
 * A CEL environment for sign-up rule conditions: variables not declared are `dyn` (the context
 * is checked when a rule runs), and `matches` runs on RE2 (see LINEAR_MATCHES).
 */
export function createCelEnvironment(limits?: Partial<CelParserLimits>): Environment {
  const env = new Environment({ unlistedVariablesAreDyn: true, ...(limits ? { limits } : {}) });
  env.registerFunction(`string.${LINEAR_MATCHES}(string): bool`, (text: string, pattern: string) => {
    let re: RE2JS;
    try {
      re = compileLinearRegex(pattern);
    } catch {
      throw new Error(`Invalid regular expression (RE2 syntax; no backreferences or lookaround): ${pattern}`);
    }
    return re.matcher(text).find();
  });
  return env;
}

/** The child nodes of a cel-js AST node (its `args` shape depends on `op`, see cel-js index.d.ts). */
export function childNodes(node: ASTNode): ASTNode[] {
  if (node.op === 'value' || node.op === 'id') return [];
  const out: ASTNode[] = [];
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (const y of x) visit(y);
      return;
    }
    if (typeof x === 'object' && x !== null && typeof (x as { op?: unknown }).op === 'string') out.push(x as ASTNode);
  };
  visit(node.args);
  return out;
}

/** Renames every `<string>.matches(…)` call of a parsed condition to the RE2 function (in place). */
export function useLinearMatches(root: ASTNode): void {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.op === 'rcall' && node.args[0] === 'matches') (node.args as unknown as unknown[])[0] = LINEAR_MATCHES;
    stack.push(...childNodes(node));
  }
}
