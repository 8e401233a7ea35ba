import * as v from 'valibot';
import { SIGN_UP_RULE_ACTIONS, StoredSignUpRuleSchema, type SignUpRule, type SignUpRuleActionType } from '../config/sign-up-rule.ts';
import { evaluateOnWorker } from './cel-pool.ts';

export { SIGN_UP_RULE_ACTIONS, StoredSignUpRuleSchema, type SignUpRule, type SignUpRuleActionType };

/** The sign-up methods a rule can tell apart (upstream `signUpAuthMethodValues`). */
export const SIGN_UP_AUTH_METHODS = ['password', 'otp', 'oauth', 'passkey'] as const;
export type SignUpAuthMethod = (typeof SIGN_UP_AUTH_METHODS)[number];

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
    const parsed = v.safeParse(StoredSignUpRuleSchema, value);
    if (parsed.success) rules.push([id, parsed.output]);
  }
  return rules.sort(([ida, a], [idb, b]) => (b.priority ?? 0) - (a.priority ?? 0) || (ida < idb ? -1 : ida > idb ? 1 : 0));
}

/**
 * The variables a condition sees: the context, `riskScores.freeTrialAbuse` (upstream's
 * camel-case alias) and `turnstile_result` (upstream's name for `turnstileResult`).
 */
function conditionVariables(context: SignUpRuleContext): Record<string, unknown> {
  return {
    ...context,
    riskScores: { ...context.riskScores, freeTrialAbuse: context.riskScores.free_trial_abuse },
    turnstile_result: context.turnstileResult,
  };
}

/**
 * Runs the project's rules in order (upstream `evaluateSignUpRulesWithTrace`): disabled rules and
 * rules without a condition are skipped; each condition is evaluated on a worker thread under
 * CEL_EVALUATION_DEADLINE_MS (cel-pool.ts; standard CEL operators, `in` lists, `contains`,
 * `startsWith`, `endsWith`, and `matches` on RE2); a condition that fails to evaluate, or overruns
 * the deadline, counts as not matching (status `error`), as upstream treats a failing rule; a matching `log` rule is only counted, a matching `restrict` rule
 * marks the user restricted (the first one is named) and evaluation goes on; the first matching
 * `allow` or `reject` rule decides. With no decision, `defaultAction` applies.
 */
export async function evaluateSignUpRules(
  rules: Array<[string, SignUpRule]>,
  defaultAction: 'allow' | 'reject',
  context: SignUpRuleContext,
  tenant: string,
): Promise<SignUpRulesTrace> {
  const variables = conditionVariables(context);
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
    const outcome = await evaluateOnWorker(rule.condition, variables, tenant);
    if (!outcome.ok) {
      evaluations.push({ ruleId, rule, status: 'error', error: `Failed to evaluate CEL expression: ${outcome.error}` });
      continue;
    }
    const matches = outcome.value;
    evaluations.push({ ruleId, rule, status: matches ? 'matched' : 'not_matched' });
    if (!matches) continue;
    const action = rule.action.type;
    triggered.push({ ruleId, action });
    if (action === 'restrict' && restrictedBecauseOfRuleId === null) restrictedBecauseOfRuleId = ruleId;
    if (action === 'allow' || action === 'reject') {
      return {
        evaluations,
        triggered,
        outcome: { shouldAllow: action === 'allow', decision: action, decisionRuleId: ruleId, restrictedBecauseOfRuleId },
      };
    }
  }
  const shouldAllow = defaultAction !== 'reject';
  return {
    evaluations,
    triggered,
    outcome: { shouldAllow, decision: shouldAllow ? 'default-allow' : 'default-reject', decisionRuleId: null, restrictedBecauseOfRuleId },
  };
}
