import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { dayString, daySeries, windowDays } from './overviews.ts';
import { userActiveDaysSince } from './queries.ts';
import { DataPointOutput } from './outputs.ts';

/** Days covered (upstream's 22×16 dashboard grid), today last. */
export const USER_ACTIVITY_DAYS = 22 * 16;

/**
 * A user's activity (admin access), one point per UTC day for the last 352 days, today last (upstream `internal/user-activity/route.tsx`,
 * the SDK's `getUserActivity`). Upstream counts the user's analytics events per day; Gatehouse
 * records the days a user was active, so `activity` is 1 on those days and 0 otherwise. An
 * unknown user id answers zeros, as upstream.
 */
export const getUserActivity = defineOperation({
  id: 'metrics.userActivity',
  method: 'GET',
  path: '/internal/user-activity',
  summary: "A user's active days over the last 352 days.",
  access: ['admin'],
  input: { query: v.strictObject({ user_id: v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters')) }) },
  errors: [],
  output: v.strictObject({ data_points: v.array(DataPointOutput) }),
  async run(ctx, { query }) {
    const days = windowDays(ctx.now, USER_ACTIVITY_DAYS);
    const active = await userActiveDaysSince(ctx.db, ctx.auth.project.id, query.user_id, dayString(days[0]!));
    return { data_points: daySeries(days, new Map([...active].map((d) => [d, 1]))) };
  },
});
