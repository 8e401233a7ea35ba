import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { QueryBooleanSchema } from '../lib/schemas.ts';
import { findTeam } from '../teams/index.ts';
import { toServerUser, type UserRow } from '../users/index.ts';
import type { Project } from '../projects/index.ts';
import type { OperationContext } from '../operations/define.ts';
import { analyticsOverview, authOverview, emailOverview, paymentsOverview } from './overviews.ts';
import { activeUsersPerDay, countUsers, loginMethodCounts, recentUsers, signUpsPerDay, usersByCountry } from './queries.ts';

const DAY_MS = 86_400_000;
/** Days covered by the daily series, today included. */
export const METRICS_DAYS = 30;

const dayString = (dayNumber: number) => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);

async function serverUsers(ctx: OperationContext, project: Project, rows: UserRow[]) {
  return Promise.all(rows.map(async (u) => toServerUser(u, project.config, u.selected_team_id ? await findTeam(ctx.db, project.id, u.selected_team_id) : null)));
}

/**
 * `GET /internal/metrics?include_anonymous=` (admin): user totals and the last 30 days for the
 * dashboard overview — `total_users`, `daily_users` (sign-ups per UTC day), `daily_active_users`
 * (distinct users who signed in or refreshed a session that day), `users_by_country`,
 * `recently_registered`, `recently_active` (5 each, server user objects) and `login_methods`, plus
 * upstream's `auth_overview`, `email_overview`, `payments_overview` and `analytics_overview`
 * (stack-shared `interface/admin-metrics.ts`; zeros where Gatehouse has no data: payments,
 * analytics, live users). Anonymous users are left out unless `include_anonymous=true`
 * (upstream packages/stack-shared/src/interface/client-interface.ts admin); `auth_overview.anonymous_users` counts them always.
 */
export const getMetrics = defineOperation({
  id: 'metrics.get',
  method: 'GET',
  path: '/internal/metrics',
  summary: 'User metrics of the project for the dashboard overview.',
  access: ['admin'],
  input: { query: v.strictObject({ include_anonymous: v.optional(QueryBooleanSchema) }) },
  errors: [],
  async run(ctx, { query }) {
    const { project } = ctx.auth;
    const anon = query.include_anonymous ?? false;
    const today = Math.floor(ctx.now / DAY_MS);
    const firstDay = today - (METRICS_DAYS - 1);
    const [total, signUps, active, countries, newest, latest, methods] = await Promise.all([
      countUsers(ctx.db, project.id, anon),
      signUpsPerDay(ctx.db, project.id, firstDay * DAY_MS, anon),
      activeUsersPerDay(ctx.db, project.id, dayString(firstDay), anon),
      usersByCountry(ctx.db, project.id, anon),
      recentUsers(ctx.db, project.id, 'signed_up_at', 5, anon),
      recentUsers(ctx.db, project.id, 'last_active_at', 5, anon),
      loginMethodCounts(ctx.db, project.id, anon),
    ]);
    const days = Array.from({ length: METRICS_DAYS }, (_, i) => firstDay + i);
    const dates = days.map(dayString);
    const dailyUsers = days.map((d) => ({ date: dayString(d), activity: signUps.get(d) ?? 0 }));
    const dailyActive = days.map((d) => ({ date: dayString(d), activity: active.get(dayString(d)) ?? 0 }));
    const [auth, email] = await Promise.all([
      authOverview(ctx.db, project.id, { days: dates, dailyActive, dailySignUps: dailyUsers, includeAnonymous: anon, totalUsersFiltered: total }),
      emailOverview(ctx.db, project.id, days),
    ]);
    return {
      total_users: total,
      live_users: 0,
      daily_users: dailyUsers,
      daily_active_users: dailyActive,
      users_by_country: countries,
      active_users_by_country: {},
      recently_registered: await serverUsers(ctx, project, newest),
      recently_active: await serverUsers(ctx, project, latest),
      login_methods: methods,
      auth_overview: auth,
      payments_overview: paymentsOverview(dates),
      email_overview: email,
      analytics_overview: analyticsOverview(dates),
    };
  },
});
