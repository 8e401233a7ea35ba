import * as v from 'valibot';
import { NullableString } from '../operations/output.ts';
import { SIGN_UP_AUTH_METHODS, SIGN_UP_RULE_ACTIONS } from './rules.ts';

/** Output schemas of the sign-up rules operations (the admin dashboard's rule tester and stats). */

const Action = v.picklist(SIGN_UP_RULE_ACTIONS);

/**
 * The answer of the rule tester: the context a condition saw (normalized: `""` for absent text),
 * each rule evaluated up to the deciding one, and the outcome.
 */
export const SignUpRulesTestOutput = v.strictObject({
  context: v.strictObject({
    email: v.string(),
    email_domain: v.string(),
    country_code: v.string(),
    auth_method: v.picklist(SIGN_UP_AUTH_METHODS),
    oauth_provider: v.string(),
    turnstile_result: v.picklist(['ok', 'invalid', 'error']),
    risk_scores: v.strictObject({ bot: v.number(), free_trial_abuse: v.number() }),
  }),
  evaluations: v.array(
    v.strictObject({
      rule_id: v.string(),
      display_name: v.string(),
      enabled: v.boolean(),
      condition: v.string(),
      status: v.picklist(['matched', 'not_matched', 'disabled', 'missing_condition', 'error']),
      action: v.strictObject({ type: Action, message: v.optional(v.string()) }),
      /** The evaluation error, with `status: "error"` only. */
      error: v.optional(v.string()),
    }),
  ),
  outcome: v.strictObject({
    should_allow: v.boolean(),
    decision: v.picklist(['allow', 'reject', 'default-allow', 'default-reject']),
    decision_rule_id: NullableString,
    restricted_because_of_rule_id: NullableString,
  }),
});

const Count = v.pipe(v.number(), v.integer());

/**
 * Trigger counts: per rule (the last `analytics_hours` hours, hour by hour with ISO hour starts,
 * oldest first, and all time), their sum, and the sums per action.
 */
export const SignUpRulesStatsOutput = v.strictObject({
  analytics_hours: Count,
  rule_triggers: v.array(
    v.strictObject({
      rule_id: v.string(),
      total_count: Count,
      all_time_count: Count,
      hourly_counts: v.array(v.strictObject({ hour: v.string(), count: Count })),
    }),
  ),
  total_triggers: Count,
  triggers_by_action: v.strictObject({ allow: Count, reject: Count, restrict: Count, log: Count }),
});
