import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { createSignUpRuleContext, evaluateSignUpRules, SIGN_UP_AUTH_METHODS } from './rules.ts';
import { signUpCountryCode, signUpFacts, signUpRiskScores } from './risk.ts';
import { loadSignUpRules } from './sign-up.ts';
import { SignUpRulesTestOutput } from './outputs.ts';

const RiskScoreSchema = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(0, 'must be between 0 and 100'),
  v.maxValue(100, 'must be between 0 and 100'),
);

/**
 * Runs the project's rules on a made-up sign-up without creating anything or counting triggers
 * (upstream `internal/sign-up-rules-test/route.tsx`). `country_code` is normalized to upper case
 * (null: derived as for a real sign-up); `risk_scores` default to those a sign-up from the server
 * with this email would get (the email base only: the admin's own address says nothing about a
 * sign-up); `turnstile_result` (default `invalid`, as upstream) is the rules' `turnstileResult` and is echoed.
 * `evaluations` lists each rule in evaluation order up to the deciding one.
 */
export const testSignUpRules = defineOperation({
  id: 'signUpRules.test',
  method: 'POST',
  path: '/internal/sign-up-rules-test',
  summary: 'Evaluate the sign-up rules on a made-up sign-up.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      email: v.nullable(v.pipe(v.string('must be a string'), v.maxLength(256, 'must be at most 256 characters'))),
      auth_method: v.picklist(SIGN_UP_AUTH_METHODS, `must be one of ${SIGN_UP_AUTH_METHODS.join(', ')}`),
      oauth_provider: v.nullable(v.pipe(v.string('must be a string'), v.maxLength(64, 'must be at most 64 characters'))),
      country_code: v.nullable(v.pipe(v.string('must be a string'), v.regex(/^[a-zA-Z]{2}$/, 'must be a two-letter country code'))),
      turnstile_result: v.optional(v.picklist(['ok', 'invalid', 'error'], 'must be ok, invalid or error')),
      risk_scores: v.optional(v.strictObject({ bot: RiskScoreSchema, free_trial_abuse: RiskScoreSchema })),
    }),
  },
  errors: [],
  output: SignUpRulesTestOutput,
  async run(ctx, { body }) {
    const { project, branchId } = ctx.auth;
    const riskScores = body.risk_scores ?? (await signUpRiskScores(ctx.db, project.id, signUpFacts(project.id, null, body.email), ctx.now));
    const context = createSignUpRuleContext({
      email: body.email,
      countryCode: body.country_code ?? signUpCountryCode(body.email, ctx.runtime.environment),
      authMethod: body.auth_method,
      oauthProvider: body.oauth_provider,
      riskScores,
      turnstileResult: body.turnstile_result ?? 'invalid',
    });
    const { rules, defaultAction } = await loadSignUpRules(ctx.db, project.id, branchId, ctx.now);
    const trace = await evaluateSignUpRules(rules, defaultAction, context, project.id);
    return {
      context: {
        email: context.email,
        email_domain: context.emailDomain,
        country_code: context.countryCode,
        auth_method: context.authMethod,
        oauth_provider: context.oauthProvider,
        turnstile_result: context.turnstileResult,
        risk_scores: { bot: context.riskScores.bot, free_trial_abuse: context.riskScores.free_trial_abuse },
      },
      evaluations: trace.evaluations.map((e) => ({
        rule_id: e.ruleId,
        display_name: e.rule.displayName ?? '',
        enabled: e.rule.enabled === true,
        condition: e.rule.condition ?? '',
        status: e.status,
        action: { type: e.rule.action.type, ...(e.rule.action.message !== undefined ? { message: e.rule.action.message } : {}) },
        ...(e.error !== undefined ? { error: e.error } : {}),
      })),
      outcome: {
        should_allow: trace.outcome.shouldAllow,
        decision: trace.outcome.decision,
        decision_rule_id: trace.outcome.decisionRuleId,
        restricted_because_of_rule_id: trace.outcome.restrictedBecauseOfRuleId,
      },
    };
  },
});
