import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { userCounts } from './queries.ts';

/**
 * Counts every user of the project (admin access), anonymous ones included, and how many of them are anonymous (upstream
 * `internal/metrics/user-counts/route.tsx`, the SDK's `getMetricsUserCounts`).
 */
export const getUserCounts = defineOperation({
  id: 'metrics.userCounts',
  method: 'GET',
  path: '/internal/metrics/user-counts',
  summary: "Count the project's users and anonymous users.",
  access: ['admin'],
  input: { query: v.strictObject({}) },
  errors: [],
  output: v.strictObject({ total_users: v.pipe(v.number(), v.integer()), anonymous_users: v.pipe(v.number(), v.integer()) }),
  async run(ctx) {
    const counts = await userCounts(ctx.db, ctx.auth.project.id);
    return { total_users: counts.total, anonymous_users: counts.anonymous };
  },
});
