import v8 from 'node:v8';
import * as v from 'valibot';
import { parse } from '@marcbachmann/cel-js';

// A rule's `matches("…")` runs a project admin's regular expression on the request path. With this
// V8 flag a pattern that backtracks excessively falls back to V8's linear-time engine, so a
// catastrophic pattern such as `(a+)+$` cannot stall the event loop for every tenant (patterns
// with backreferences or lookaround cannot use that engine: docs/security.md "Sign-up rules").
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/** What a matching rule does (upstream `SignUpRuleAction`). */
export const SIGN_UP_RULE_ACTIONS = ['allow', 'reject', 'restrict', 'log'] as const;
export type SignUpRuleActionType = (typeof SIGN_UP_RULE_ACTIONS)[number];

/** The sign-up methods a rule can tell apart (upstream `signUpAuthMethodValues`). */
export const SIGN_UP_AUTH_METHODS = ['password', 'otp', 'oauth', 'passkey'] as const;
export type SignUpAuthMethod = (typeof SIGN_UP_AUTH_METHODS)[number];

/**
 * One stored rule, `auth.signUpRules.<id>` in the config model (upstream `SignUpRule`): a rule
 * runs only when `enabled` is true and it has a `condition` (a CEL expression); `priority` orders
 * rules, highest first, ties by id; `action.message` is for admins only, never shown to users.
 */
export const SignUpRuleSchema = v.looseObject({
  enabled: v.optional(v.boolean('must be a boolean')),
  displayName: v.optional(v.string('must be a string')),
  priority: v.optional(v.pipe(v.number('must be a number'), v.finite('must be a finite number'))),
  condition: v.optional(v.pipe(v.string('must be a string'), v.maxLength(10_000, 'must be at most 10000 characters'))),
  action: v.looseObject({
    type: v.picklist(SIGN_UP_RULE_ACTIONS, `must be one of ${SIGN_UP_RULE_ACTIONS.join(', ')}`),
    message: v.optional(v.string('must be a string')),
  }, 'must be an object with a type'),
}, 'must be an object');
export type SignUpRule = v.InferOutput<typeof SignUpRuleSchema>;

/** The two risk scores, integers 0–100 (upstream `SignUpRiskScoresCrud`). */
export interface SignUpRiskScores {
  bot: number;
  free_trial_abuse: number;
}

/**
 * The variables a condition sees (upstream `SignUpRuleContext`): the normalized `email` ("" when
 * the sign-up has none), `emailDomain` (after the last `@`), `countryCode` (ISO 3166-1 alpha-2,
 * upper case, "" when unknown), `authMethod`, `oauthProvider` ("" unless OAuth) and `riskScores`
 * (`bot`, `free_trial_abuse`, also as `freeTrialAbuse`); Gatehouse adds `turnstileResult` (also as
 * `turnstile_result`): the sign-up's bot challenge, `ok`, `invalid` or `error` (core/bot-challenge;
 * `ok` when the project has none).
 */
export interface SignUpRuleContext {
  email: string;
  emailDomain: string;
  countryCode: string;
  authMethod: SignUpAuthMethod;
  oauthProvider: string;
  riskScores: SignUpRiskScores;
  turnstileResult: 'ok' | 'invalid' | 'error';
}

/** Builds the condition variables from a sign-up's raw facts (upstream `createSignUpRuleContext`). */
export function createSignUpRuleContext(input: {
  email: string | null;
  countryCode: string | null;
  authMethod: SignUpAuthMethod;
  oauthProvider: string | null;
  riskScores: SignUpRiskScores;
  /** The bot challenge's result (default `ok`: no challenge). */
  turnstileResult?: 'ok' | 'invalid' | 'error';
}): SignUpRuleContext {
  const email = input.email ? input.email.trim().toLowerCase() : '';
  const at = email.lastIndexOf('@');
  return {
    email,
    emailDomain: at === -1 ? '' : email.slice(at + 1),
    countryCode: input.countryCode ? input.countryCode.trim().toUpperCase() : '',
    authMethod: input.authMethod,
    oauthProvider: input.oauthProvider ?? '',
    riskScores: { bot: input.riskScores.bot, free_trial_abuse: input.riskScores.free_trial_abuse },
    turnstileResult: input.turnstileResult ?? 'ok',
  };
}

export type SignUpRuleStatus = 'matched' | 'not_matched' | 'disabled' | 'missing_condition' | 'error';

/** One rule's evaluation, as the rules test route reports it. */
export interface SignUpRuleEvaluation {
  ruleId: string;
  rule: SignUpRule;
  status: SignUpRuleStatus;
  error?: string;
}

/** The decision: the first matching allow or reject rule, else the default action. */
export interface SignUpRulesOutcome {
  shouldAllow: boolean;
  decision: 'allow' | 'reject' | 'default-allow' | 'default-reject';
  decisionRuleId: string | null;
  /** The first (highest-priority) matching `restrict` rule evaluated before the decision. */
  restrictedBecauseOfRuleId: string | null;
}

export interface SignUpRulesTrace {
  evaluations: SignUpRuleEvaluation[];
  outcome: SignUpRulesOutcome;
  /** Every rule that matched, in evaluation order, with its action (what the stats count). */
  triggered: Array<{ ruleId: string; action: SignUpRuleActionType }>;
}

/**
 * The rules of a rendered `auth.signUpRules` record in evaluation order: priority descending
 * (highest first, as upstream's config documents), then id ascending. Entries that are not valid
 * rules (the config model validates them on write, so only hand-edited data) are left out.
 */
export function orderedRules(record: unknown): Array<[string, SignUpRule]> {
  if (typeof record !== 'object' || record === null) return [];
  const rules: Array<[string, SignUpRule]> = [];
  for (const [id, value] of Object.entries(record)) {
    const parsed = v.safeParse(SignUpRuleSchema, value);
    if (parsed.success) rules.push([id, parsed.output]);
  }
  return rules.sort(([ida, a], [idb, b]) => (b.priority ?? 0) - (a.priority ?? 0) || (ida < idb ? -1 : ida > idb ? 1 : 0));
}

const compiled = new Map<string, ReturnType<typeof parse>>();

/** Parses a condition once (cached by text, at most 500 kept); throws the parser's error. */
function compile(condition: string): ReturnType<typeof parse> {
  let fn = compiled.get(condition);
  if (!fn) {
    fn = parse(condition);
    if (compiled.size >= 500) compiled.delete(compiled.keys().next().value!);
    compiled.set(condition, fn);
  }
  return fn;
}

/**
 * Checks that a condition parses as CEL; returns the parser's message, or null when it does.
 * Variables and types are checked only when the rule runs.
 */
export function conditionProblem(condition: string): string | null {
  try {
    compile(condition);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0]! : String(error);
  }
}

/**
 * Evaluates one CEL condition against a sign-up (upstream `evaluateCelExpression`): `true`
 * matches; other values do not. Standard CEL operators, `in` lists, and the string functions
 * `contains`, `startsWith`, `endsWith` and `matches` (a regular expression). Throws on a parse
 * or evaluation error (unknown variable, wrong types, invalid regular expression).
 */
export function evaluateCondition(condition: string, context: SignUpRuleContext): boolean {
  const variables = {
    ...context,
    riskScores: { ...context.riskScores, freeTrialAbuse: context.riskScores.free_trial_abuse },
    turnstile_result: context.turnstileResult,
  };
  return compile(condition)(variables) === true;
}

/**
 * Runs the project's rules in order (upstream `evaluateSignUpRulesWithTrace`): disabled rules and
 * rules without a condition are skipped; a condition that fails to evaluate counts as not
 * matching (status `error`); a matching `log` rule is only counted, a matching `restrict` rule
 * marks the user restricted (the first one is named) and evaluation goes on; the first matching
 * `allow` or `reject` rule decides. With no decision, `defaultAction` applies.
 */
export function evaluateSignUpRules(rules: Array<[string, SignUpRule]>, defaultAction: 'allow' | 'reject', context: SignUpRuleContext): SignUpRulesTrace {
  const evaluations: SignUpRuleEvaluation[] = [];
  const triggered: SignUpRulesTrace['triggered'] = [];
  let restrictedBecauseOfRuleId: string | null = null;
  for (const [ruleId, rule] of rules) {
    if (rule.enabled !== true) {
      evaluations.push({ ruleId, rule, status: 'disabled' });
      continue;
    }
    if (!rule.condition) {
      evaluations.push({ ruleId, rule, status: 'missing_condition' });
      continue;
    }
    let matches: boolean;
    try {
      matches = evaluateCondition(rule.condition, context);
    } catch (error) {
      evaluations.push({ ruleId, rule, status: 'error', error: `Failed to evaluate CEL expression: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` });
      continue;
    }
    evaluations.push({ ruleId, rule, status: matches ? 'matched' : 'not_matched' });
    if (!matches) continue;
    const action = rule.action.type;
    triggered.push({ ruleId, action });
    if (action === 'restrict' && restrictedBecauseOfRuleId === null) restrictedBecauseOfRuleId = ruleId;
    if (action === 'allow' || action === 'reject') {
      return { evaluations, triggered, outcome: { shouldAllow: action === 'allow', decision: action, decisionRuleId: ruleId, restrictedBecauseOfRuleId } };
    }
  }
  const shouldAllow = defaultAction !== 'reject';
  return { evaluations, triggered, outcome: { shouldAllow, decision: shouldAllow ? 'default-allow' : 'default-reject', decisionRuleId: null, restrictedBecauseOfRuleId } };
}
