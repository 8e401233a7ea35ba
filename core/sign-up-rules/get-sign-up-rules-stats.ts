import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { SIGN_UP_RULE_ACTIONS, type SignUpRuleActionType } from './rules.ts';
import { listTriggerCounts } from './queries.ts';
import { settleTriggerCounts } from './sign-up.ts';
import { SignUpRulesStatsOutput } from './outputs.ts';

const HOUR = 3_600_000;
/** Hours covered by `hourly_counts`, the current one included (upstream `ANALYTICS_HOURS`). */
export const SIGN_UP_RULES_STATS_HOURS = 48;

/**
 * How often each rule matched a sign-up (upstream `internal/sign-up-rules-stats/route.tsx`):
 * `hour` is the ISO start of each UTC hour, oldest first, ending with the current hour;
 * `total_count`, `total_triggers` and `triggers_by_action` cover those 48 hours, `all_time_count`
 * everything recorded. Rules appear once they have matched at least once, ordered by id.
 */
export const getSignUpRulesStats = defineOperation({
  id: 'signUpRules.stats',
  method: 'GET',
  path: '/internal/sign-up-rules-stats',
  summary: 'How often each sign-up rule matched, per hour for the last 48 hours.',
  access: ['admin'],
  input: { query: v.strictObject({}) },
  errors: [],
  output: SignUpRulesStatsOutput,
  async run(ctx) {
    const { project, branchId } = ctx.auth;
    await settleTriggerCounts(ctx.runtime);
    const currentHour = Math.floor(ctx.now / HOUR) * HOUR;
    const since = currentHour - (SIGN_UP_RULES_STATS_HOURS - 1) * HOUR;
    const byAction = Object.fromEntries(SIGN_UP_RULE_ACTIONS.map((a) => [a, 0])) as Record<SignUpRuleActionType, number>;
    const byRule = new Map<string, { total: number; allTime: number; hours: Map<number, number> }>();
    let totalTriggers = 0;
    for (const row of await listTriggerCounts(ctx.db, project.id, branchId)) {
      let entry = byRule.get(row.rule_id);
      if (!entry) byRule.set(row.rule_id, (entry = { total: 0, allTime: 0, hours: new Map() }));
      entry.allTime += row.count;
      if (row.hour_start < since) continue;
      entry.total += row.count;
      entry.hours.set(row.hour_start, (entry.hours.get(row.hour_start) ?? 0) + row.count);
      totalTriggers += row.count;
      if (row.action in byAction) byAction[row.action as SignUpRuleActionType] += row.count;
    }
    const hours = Array.from({ length: SIGN_UP_RULES_STATS_HOURS }, (_, i) => since + i * HOUR);
    return {
      analytics_hours: SIGN_UP_RULES_STATS_HOURS,
      rule_triggers: [...byRule.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([ruleId, entry]) => ({
          rule_id: ruleId,
          total_count: entry.total,
          all_time_count: entry.allTime,
          hourly_counts: hours.map((hour) => ({ hour: new Date(hour).toISOString(), count: entry.hours.get(hour) ?? 0 })),
        })),
      total_triggers: totalTriggers,
      triggers_by_action: byAction,
    };
  },
});
