export { testSignUpRules } from './test-sign-up-rules.ts';
export { getSignUpRulesStats } from './get-sign-up-rules-stats.ts';
export { signUpUser } from './sign-up.ts';
export { checkSignInAttempt, SIGN_IN_ATTEMPT_ERRORS } from './sign-in-attempt.ts';
export { configureCelPool } from './cel-pool.ts';
