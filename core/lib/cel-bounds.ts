import type { ASTNode } from '@marcbachmann/cel-js';
import { childNodes, compileLinearRegex, COMPREHENSION_MACROS, createCelEnvironment, type CelParserLimits } from './cel-environment.ts';

/**
 * What a sign-up rule's condition may cost, checked when the rule is saved.
 * A condition runs on every sign-up of its project, and CEL's comprehension macros multiply:
 * six nested `.all()` over short lists took seconds per sign-up. The numbers leave room for
 * every realistic rule (upstream's examples are one-line comparisons, `in` lists of domains or
 * countries, `contains` / `matches`) and refuse what only an attacker writes. Rules saved before
 * the bound still run, under the evaluation deadline (cel-pool.ts).
 */
export const CEL_LIMITS = {
  /** Characters of the condition text (SignUpRuleSchema). */
  maxLength: 10_000,
  /** Parser limits: AST nodes, nesting of sub-expressions, literal list and map sizes, call arguments. */
  parser: { maxAstNodes: 2_000, maxDepth: 24, maxListElements: 500, maxMapEntries: 100, maxCallArguments: 8 } satisfies CelParserLimits,
  /** Comprehension macros (all, exists, exists_one, map, filter) in one condition. */
  maxMacros: 8,
  /** Comprehension macros inside one another (a chained `.map(…).all(…)` counts as nested). */
  maxMacroNesting: 2,
  /** Characters of one string literal (a domain list entry, a regular expression). */
  maxStringLiteral: 1_000,
  /**
   * Estimated evaluation steps: one per node, a comprehension's body once per element of its
   * list (the literal's length, or DYNAMIC_LIST_SIZE for a computed list), `in` a list once
   * per element. About 20 ms of evaluation on this kind of machine.
   */
  maxCost: 100_000,
} as const;

/**
 * The most elements a list computed from a sign-up's variables can have: `email.split("")` of
 * the longest accepted address (256 characters) and the empty string before it.
 */
const DYNAMIC_LIST_SIZE = 257;

const saveTimeEnvironment = createCelEnvironment(CEL_LIMITS.parser);

class LimitExceeded extends Error {}

function listSize(node: ASTNode): number {
  return node.op === 'list' ? node.args.length : DYNAMIC_LIST_SIZE;
}

/** One walk: macro count and nesting, literal sizes, `matches` patterns; returns the estimated cost. */
function measure(node: ASTNode, nesting: number, counts: { macros: number }): number {
  if (node.op === 'value') {
    const value = node.args;
    if ((typeof value === 'string' || value instanceof Uint8Array) && value.length > CEL_LIMITS.maxStringLiteral) {
      throw new LimitExceeded(`a literal is ${value.length} characters long; at most ${CEL_LIMITS.maxStringLiteral} are accepted`);
    }
    return 1;
  }
  if (node.op === 'rcall' && COMPREHENSION_MACROS.has(node.args[0])) {
    const [name, receiver, args] = node.args;
    counts.macros += 1;
    if (counts.macros > CEL_LIMITS.maxMacros)
      throw new LimitExceeded(`more than ${CEL_LIMITS.maxMacros} comprehension macros (all, exists, exists_one, map, filter)`);
    if (nesting + 1 > CEL_LIMITS.maxMacroNesting)
      throw new LimitExceeded(`comprehension macros (${name}) are nested more than ${CEL_LIMITS.maxMacroNesting} deep`);
    const range = measure(receiver, nesting + 1, counts);
    let body = 0;
    for (const arg of args.slice(1)) body += measure(arg, nesting + 1, counts);
    return 1 + range + listSize(receiver) * (body + 1);
  }
  if (node.op === 'rcall' && node.args[0] === 'matches') {
    const pattern = node.args[2][0];
    if (!pattern || pattern.op !== 'value' || typeof pattern.args !== 'string') {
      throw new LimitExceeded('the pattern of matches() must be a string literal');
    }
    try {
      compileLinearRegex(pattern.args);
    } catch (error) {
      throw new LimitExceeded(
        `the pattern ${JSON.stringify(pattern.args)} of matches() cannot run in linear time (RE2 syntax; backreferences and lookaround are not supported): ${(error as Error).message}`,
      );
    }
  }
  let cost = 1;
  for (const child of childNodes(node)) cost += measure(child, nesting, counts);
  if (node.op === 'in') cost += listSize(node.args[1]);
  return cost;
}

/**
 * Checks a condition's cost when a rule is saved: it parses within CEL_LIMITS.parser, and its
 * macros, literals, `matches` patterns and estimated cost are within CEL_LIMITS. A condition that
 * is not valid CEL at all is accepted, as upstream saves it: it cannot run, and counts as not
 * matching (status `error`) when evaluated. Variables and types are likewise checked only when
 * the rule runs.
 *
 * @returns null when acceptable, else one sentence naming the limit exceeded.
 */
export function conditionProblem(condition: string): string | null {
  let ast: ASTNode;
  try {
    ast = saveTimeEnvironment.parse(condition).ast;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'limit_exceeded') return null;
    return (error as Error).message.split('\n')[0]!;
  }
  try {
    const cost = measure(ast, 0, { macros: 0 });
    if (cost > CEL_LIMITS.maxCost)
      return `the condition's estimated cost is ${cost} steps; at most ${CEL_LIMITS.maxCost} are accepted (comprehension macros run their body once per list element)`;
    return null;
  } catch (error) {
    if (error instanceof LimitExceeded) return error.message;
    throw error;
  }
}
