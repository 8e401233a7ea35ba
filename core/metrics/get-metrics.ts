import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { QueryBooleanSchema } from '../lib/schemas.ts';
import { findTeam } from '../teams/index.ts';
import { toServerUser, type UserRow } from '../users/index.ts';
import type { Project } from '../projects/index.ts';
import type { OperationContext } from '../operations/define.ts';
import { analyticsOverview, authOverview, dayString, emailOverview, loadActivity, windowDays, type DataPoint } from './overviews.ts';
import { paymentsMetrics } from '../payments/index.ts';
import { countUsers, loginMethodCounts, recentUsers, signUpsPerDay, signUpsPerHour, usersActiveSince, usersByCountry } from './queries.ts';
import { MetricsOutput } from './outputs.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Upstream's "live" window: users active in the last two minutes. */
const LIVE_MS = 2 * 60_000;
/** Users listed per country in `active_users_by_country` (upstream `ACTIVE_USERS_BY_COUNTRY_LIMIT`). */
const LIVE_PER_COUNTRY = 8;
/** Upstream's `RECENT_LIST_PAGE_SIZE` (recently registered users) and its 5 recently active users. */
const RECENTLY_REGISTERED = 100;
const RECENTLY_ACTIVE = 5;

async function serverUsers(ctx: OperationContext, project: Project, rows: UserRow[]) {
  return Promise.all(
    rows.map(async (u) =>
      toServerUser(u, project.config, u.selected_team_id ? await findTeam(ctx.db, project.id, u.selected_team_id) : null),
    ),
  );
}

/** Upstream's `MetricsRecentUserSchema` fields of a user. */
function recentUser(u: UserRow) {
  return {
    id: u.id,
    display_name: u.display_name,
    primary_email: u.primary_email,
    profile_image_url: u.profile_image_url,
    signed_up_at_millis: Number(u.signed_up_at),
    last_active_at_millis: u.last_active_at === null ? null : Number(u.last_active_at),
  };
}

/** The last 24 UTC hours, the current one last, as upstream's hourly series (`YYYY-MM-DDTHH:00:00.000Z`). */
function hourSeries(now: number, counts: Map<number, number> = new Map()): DataPoint[] {
  const latest = Math.floor(now / HOUR_MS);
  return Array.from({ length: 24 }, (_, i) => {
    const hour = latest - 23 + i;
    return { date: `${new Date(hour * HOUR_MS).toISOString().slice(0, 13)}:00:00.000Z`, activity: counts.get(hour) ?? 0 };
  });
}

const FilterSchema = v.optional(v.pipe(v.string(), v.maxLength(1024, 'must be at most 1024 characters')));

/**
 * The dashboard overview in upstream's shape (admin access)
 * (`internal/metrics/route.tsx`, stack-shared `interface/admin-metrics.ts`), over upstream's
 * window of the 30 days before today and today (31 UTC days): `total_users`; `live_users` (active
 * in the last two minutes) and `active_users_by_country`; `daily_users` (sign-ups) and
 * `daily_active_users`; `hourly_users` (sign-ups, last 24 hours); `users_by_country` (users active
 * in the window, by sign-up country); `recently_registered` (100) and `recently_active` (5) as
 * server user objects; `login_methods`; and `auth_overview`, `payments_overview`,
 * `email_overview`, `analytics_overview`. Anonymous users are left out unless
 * `include_anonymous=true`. Zeros where Gatehouse records nothing: hourly activity, team
 * activity, page analytics (docs/compatibility.md). The `filter_*` parameters are
 * accepted as upstream's and narrow only page analytics, which Gatehouse does not collect.
 */
export const getMetrics = defineOperation({
  id: 'metrics.get',
  method: 'GET',
  path: '/internal/metrics',
  summary: 'User metrics of the project for the dashboard overview.',
  access: ['admin'],
  input: {
    query: v.strictObject({
      include_anonymous: v.optional(QueryBooleanSchema),
      filter_country_code: FilterSchema,
      filter_referrer: FilterSchema,
      filter_browser: FilterSchema,
      filter_os: FilterSchema,
      filter_device: FilterSchema,
      filter_since: FilterSchema,
      filter_until: FilterSchema,
    }),
  },
  errors: [],
  output: MetricsOutput,
  async run(ctx, { query }) {
    const { project } = ctx.auth;
    const anon = query.include_anonymous ?? false;
    const days = windowDays(ctx.now);
    const fromMs = days[0]! * DAY_MS;
    const [total, signUps, hourly, countries, newest, latest, live, methods, activity] = await Promise.all([
      countUsers(ctx.db, project.id, anon),
      signUpsPerDay(ctx.db, project.id, fromMs, anon),
      signUpsPerHour(ctx.db, project.id, (Math.floor(ctx.now / HOUR_MS) - 23) * HOUR_MS, anon),
      usersByCountry(ctx.db, project.id, fromMs, anon),
      recentUsers(ctx.db, project.id, 'signed_up_at', RECENTLY_REGISTERED, anon),
      recentUsers(ctx.db, project.id, 'last_active_at', RECENTLY_ACTIVE, anon),
      usersActiveSince(ctx.db, project.id, ctx.now - LIVE_MS, anon),
      loginMethodCounts(ctx.db, project.id),
      loadActivity(ctx.db, project.id, days),
    ]);
    const [auth, email] = await Promise.all([
      authOverview(ctx.db, project.id, { days, activity, includeAnonymous: anon, totalUsersFiltered: total }),
      emailOverview(ctx.db, project.id, days),
    ]);
    const byCountry: Record<string, ReturnType<typeof recentUser>[]> = {};
    for (const u of live) {
      if (!u.country_code) continue;
      const list = (byCountry[u.country_code.toUpperCase()] ??= []);
      if (list.length < LIVE_PER_COUNTRY) list.push(recentUser(u));
    }
    return {
      total_users: total,
      live_users: live.length,
      daily_users: days.map((d) => ({ date: dayString(d), activity: signUps.get(d) ?? 0 })),
      daily_active_users: auth.daily_active_users_split.total,
      hourly_users: hourSeries(ctx.now, hourly),
      hourly_active_users: hourSeries(ctx.now),
      users_by_country: countries,
      active_users_by_country: byCountry,
      recently_registered: await serverUsers(ctx, project, newest),
      recently_active: await serverUsers(ctx, project, latest),
      login_methods: methods,
      auth_overview: auth,
      payments_overview: await paymentsMetrics(ctx.db, project.id, days.map(dayString)),
      email_overview: email,
      analytics_overview: analyticsOverview(days, activity),
    };
  },
});
