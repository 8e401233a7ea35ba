import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { OUTBOX_STATUS } from '../emails/index.ts';
import { activeDays, countTeams, emailStats, firstActiveDays, userVerificationCounts } from './queries.ts';

/** One point of a series (upstream `MetricsDataPointSchema`). */
export interface DataPoint {
  date: string;
  activity: number;
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a day number (days since the epoch, UTC). */
export const dayString = (dayNumber: number) => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);

/**
 * The metrics window as upstream's `getMetricsWindowBounds`: the 30 days before today and today
 * (31 UTC days), as day numbers, oldest first.
 */
export function windowDays(now: number, length = 31): number[] {
  const today = Math.floor(now / DAY_MS);
  return Array.from({ length }, (_, i) => today - (length - 1) + i);
}

/** A series with one point per window day, zero where `values` has none. */
export function daySeries(days: number[], values: Map<string, number> = new Map()): DataPoint[] {
  return days.map((d) => ({ date: dayString(d), activity: values.get(dayString(d)) ?? 0 }));
}

/** Upstream's `ActivitySplit` of active users per day. */
export interface ActivitySplit {
  total: DataPoint[];
  new: DataPoint[];
  retained: DataPoint[];
  reactivated: DataPoint[];
}

/**
 * Daily active users split as upstream's `loadDailyActiveSplitFromClickhouse`: for each window
 * day, `total` active users; `new` whose first active day ever is that day; `retained` active the
 * window day before too; `reactivated` the others (seen before, but not the day before within
 * the window). Built from Gatehouse's one-row-per-user-per-day activity record.
 */
export function activitySplit(days: number[], rows: Array<{ userId: string; day: string }>, firstDay: Map<string, string>): ActivitySplit {
  const byUser = new Map<string, string[]>();
  for (const r of rows) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), r.day]);
  const counts = new Map<string, { total: number; new: number; retained: number; reactivated: number }>();
  const bump = (day: string, key: 'total' | 'new' | 'retained' | 'reactivated') => {
    const c = counts.get(day) ?? { total: 0, new: 0, retained: 0, reactivated: 0 };
    c[key] += 1;
    counts.set(day, c);
  };
  for (const [userId, userDays] of byUser) {
    userDays.sort();
    userDays.forEach((day, i) => {
      bump(day, 'total');
      const first = firstDay.get(userId) ?? day;
      const previous = i > 0 ? userDays[i - 1]! : null;
      const dayBefore = dayString(Math.round(Date.parse(day) / DAY_MS) - 1);
      if (first === day) bump(day, 'new');
      else if (previous === dayBefore) bump(day, 'retained');
      else bump(day, 'reactivated');
    });
  }
  const series = (key: 'total' | 'new' | 'retained' | 'reactivated') =>
    days.map((d) => ({ date: dayString(d), activity: counts.get(dayString(d))?.[key] ?? 0 }));
  return { total: series('total'), new: series('new'), retained: series('retained'), reactivated: series('reactivated') };
}

/** Active-day rows of the window, and first active days, for the user split and the anonymous-visitor fallback. */
export async function loadActivity(db: Kysely<Database>, projectId: string, days: number[]) {
  const from = dayString(days[0]!);
  const [rows, firsts] = await Promise.all([activeDays(db, projectId, from), firstActiveDays(db, projectId, from)]);
  return { rows, firsts };
}

/**
 * `auth_overview` of upstream's `/internal/metrics` (stack-shared `interface/admin-metrics.ts`):
 * non-anonymous users with and without a verified email, anonymous users, teams, monthly active
 * users (distinct users active in the window) and the daily active users split. Gatehouse does
 * not record team activity, so `daily_active_teams_split` is zeros.
 */
export async function authOverview(
  db: Kysely<Database>,
  projectId: string,
  input: {
    days: number[];
    activity: Awaited<ReturnType<typeof loadActivity>>;
    includeAnonymous: boolean;
    totalUsersFiltered: number;
  },
) {
  const [counts, teams] = await Promise.all([userVerificationCounts(db, projectId), countTeams(db, projectId)]);
  const rows = input.activity.rows.filter((r) => input.includeAnonymous || !r.anonymous);
  const zeros = () => daySeries(input.days);
  return {
    verified_users: counts.verified,
    unverified_users: counts.unverified,
    anonymous_users: counts.anonymous,
    total_teams: teams,
    mau: new Set(rows.map((r) => r.userId)).size,
    daily_active_users_split: activitySplit(input.days, rows, input.activity.firsts),
    daily_active_teams_split: { total: zeros(), new: zeros(), retained: zeros(), reactivated: zeros() },
    total_users_filtered: input.totalUsersFiltered,
  };
}

/** Upstream's outbox status enum text (`SENT`, `SERVER_ERROR`, …) and simple status of a stored status. */
function outboxStatus(stored: string): { status: string; simple: 'ok' | 'error' | 'in-progress' } {
  const mapped = OUTBOX_STATUS[stored] ?? { status: 'queued', simple: 'in-progress' as const };
  return { status: mapped.status.toUpperCase().replace(/-/g, '_'), simple: mapped.simple };
}

const percent = (part: number, whole: number) => Number((Math.min(part / (whole > 0 ? whole : 1), 1) * 100).toFixed(2));

/**
 * `email_overview` from the project's outbox as upstream's `loadEmailOverview`: counts by simple
 * status (`ok`, `error`, `in-progress`; only those present), the window's daily counts, the 100
 * newest emails with upstream's status names, and rates in percent over emails that finished
 * sending (sent or failed). An email the SMTP server accepted counts as delivered; Gatehouse
 * sees no bounces or clicks (zeros).
 */
export async function emailOverview(db: Kysely<Database>, projectId: string, days: number[]) {
  const stats = await emailStats(db, projectId, days[0]! * DAY_MS, 100);
  const totals = { ok: 0, error: 0, 'in-progress': 0 };
  let sent = 0;
  let failed = 0;
  for (const [stored, n] of stats.byStatus) {
    totals[outboxStatus(stored).simple] += n;
    if (stored === 'sent') sent += n;
    if (stored === 'failed') failed += n;
  }
  const perDay = new Map<string, { ok: number; error: number; in_progress: number }>(
    days.map((d) => [dayString(d), { ok: 0, error: 0, in_progress: 0 }]),
  );
  for (const r of stats.daily) {
    const entry = perDay.get(dayString(r.day));
    if (!entry) continue;
    const simple = outboxStatus(r.status).simple;
    entry[simple === 'in-progress' ? 'in_progress' : simple] += r.n;
  }
  const emailsByStatus = Object.fromEntries(Object.entries(totals).filter(([, n]) => n > 0));
  const finished = sent + failed;
  return {
    emails_by_status: emailsByStatus,
    total_emails: totals.ok + totals.error + totals['in-progress'],
    daily_emails: [...perDay].map(([date, c]) => ({ date, activity: c.ok + c.error + c.in_progress })),
    daily_emails_by_status: [...perDay].map(([date, c]) => ({ date, ...c })),
    emails_sent: finished,
    recent_emails: stats.latest.map((e) => ({
      id: e.id,
      status: outboxStatus(e.status).status,
      subject: e.subject ?? '(no subject)',
      created_at_millis: Number(e.created_at),
    })),
    deliverability_status: { delivered: sent, bounced: 0, error: totals.error, in_progress: totals['in-progress'] },
    deliverability_rate: percent(sent, finished),
    bounce_rate: 0,
    click_rate: 0,
  };
}

/**
 * `analytics_overview` as upstream answers for a project without its analytics app (Gatehouse
 * collects no page views, clicks or replays): empty page-view series and lists, zeros, and the
 * anonymous-visitor fallback from anonymous users' active days in the window; `daily_revenue`
 * one zero point per window day (no paid invoices).
 */
export function analyticsOverview(days: number[], activity: Awaited<ReturnType<typeof loadActivity>>) {
  const anonymous = activity.rows.filter((r) => r.anonymous);
  const perDay = new Map<string, number>();
  for (const r of anonymous) perDay.set(r.day, (perDay.get(r.day) ?? 0) + 1);
  return {
    daily_page_views: [],
    daily_clicks: [],
    daily_visitors: [],
    hourly_page_views: [],
    hourly_active_users: [],
    hourly_visitors: [],
    daily_anonymous_visitors_fallback: daySeries(days, perDay),
    daily_revenue: days.map((d) => ({ date: dayString(d), new_cents: 0, refund_cents: 0 })),
    total_revenue_cents: 0,
    total_replays: 0,
    recent_replays: 0,
    visitors: 0,
    anonymous_visitors_fallback: new Set(anonymous.map((r) => r.userId)).size,
    avg_session_seconds: 0,
    bounce_rate: 0,
    daily_bounce_rate: [],
    daily_avg_session_seconds: [],
    online_live: 0,
    revenue_per_visitor: 0,
    top_referrers: [],
    top_region: null,
    top_regions: [],
    top_browsers: [],
    top_operating_systems: [],
    top_devices: [],
  };
}
