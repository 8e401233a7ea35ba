export { testSignUpRules } from './test-sign-up-rules.ts';
export { getSignUpRulesStats, SIGN_UP_RULES_STATS_HOURS } from './get-sign-up-rules-stats.ts';
export { signUpUser, checkSignUpRules, loadSignUpRules, settleTriggerCounts, type SignUpAttempt } from './sign-up.ts';
export { SignUpRuleSchema, StoredSignUpRuleSchema, evaluateSignUpRules, orderedRules, SIGN_UP_AUTH_METHODS, SIGN_UP_RULE_ACTIONS, type SignUpRule, type SignUpAuthMethod } from './rules.ts';
export { conditionProblem, CEL_LIMITS } from '../lib/cel-bounds.ts';
export { configureCelPool, CEL_EVALUATION_DEADLINE_MS } from './cel-pool.ts';
