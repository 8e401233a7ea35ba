import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { countActiveUsersSince, countTeams, emailStats, userVerificationCounts } from './queries.ts';

/** One point of a daily series (upstream `MetricsDataPointSchema`). */
export interface DataPoint { date: string; activity: number }

const DAY_MS = 86_400_000;

/**
 * Upstream's email delivery states from Gatehouse's outbox statuses: `sent` is delivered (`ok`),
 * `failed` is an error, `pending` is in progress; `outbox` (kept without a mail server) counts as
 * in progress too.
 */
function deliveryState(status: string): 'ok' | 'error' | 'in_progress' {
  if (status === 'sent') return 'ok';
  if (status === 'failed') return 'error';
  return 'in_progress';
}

/**
 * `auth_overview` of upstream's `/internal/metrics` (stack-shared `interface/admin-metrics.ts`):
 * verified / unverified / anonymous users, teams, monthly active users, and the daily active
 * users split. Gatehouse records which days a user was active but not yet which of them were
 * returns, so `new` counts the day's sign-ups that were active, `total` the day's active users,
 * and `retained` / `reactivated` are zeros; teams are not tracked per day (zeros).
 */
export async function authOverview(db: Kysely<Database>, projectId: string, input: {
  days: string[]; dailyActive: DataPoint[]; dailySignUps: DataPoint[]; includeAnonymous: boolean; totalUsersFiltered: number;
}) {
  const [counts, teams, mau] = await Promise.all([
    userVerificationCounts(db, projectId),
    countTeams(db, projectId),
    countActiveUsersSince(db, projectId, input.days[0]!, input.includeAnonymous),
  ]);
  const zeros = () => input.days.map((date) => ({ date, activity: 0 }));
  return {
    verified_users: counts.verified,
    unverified_users: counts.unverified,
    anonymous_users: counts.anonymous,
    total_teams: teams,
    mau,
    daily_active_users_split: {
      total: input.dailyActive,
      new: input.dailySignUps.map((p, i) => ({ date: p.date, activity: Math.min(p.activity, input.dailyActive[i]?.activity ?? 0) })),
      retained: zeros(),
      reactivated: zeros(),
    },
    daily_active_teams_split: { total: zeros(), new: zeros(), retained: zeros(), reactivated: zeros() },
    total_users_filtered: input.totalUsersFiltered,
  };
}

/** `email_overview` from the project's email outbox (upstream `MetricsEmailOverviewSchema`). */
export async function emailOverview(db: Kysely<Database>, projectId: string, days: number[]) {
  const stats = await emailStats(db, projectId, days[0]! * DAY_MS, 10);
  const dateOf = (d: number) => new Date(d * DAY_MS).toISOString().slice(0, 10);
  const perDay = new Map<number, { ok: number; error: number; in_progress: number }>();
  for (const r of stats.daily) {
    const entry = perDay.get(r.day) ?? { ok: 0, error: 0, in_progress: 0 };
    entry[deliveryState(r.status)] += r.n;
    perDay.set(r.day, entry);
  }
  const states = { ok: 0, error: 0, in_progress: 0 };
  for (const [status, n] of stats.byStatus) states[deliveryState(status)] += n;
  const total = states.ok + states.error + states.in_progress;
  const finished = states.ok + states.error;
  return {
    emails_by_status: Object.fromEntries(stats.byStatus),
    total_emails: total,
    daily_emails: days.map((d) => { const e = perDay.get(d); return { date: dateOf(d), activity: e ? e.ok + e.error + e.in_progress : 0 }; }),
    daily_emails_by_status: days.map((d) => ({ date: dateOf(d), ...(perDay.get(d) ?? { ok: 0, error: 0, in_progress: 0 }) })),
    emails_sent: states.ok,
    recent_emails: stats.latest.map((e) => ({ id: e.id, status: e.status, subject: e.subject, created_at_millis: Number(e.created_at) })),
    deliverability_status: { delivered: states.ok, bounced: 0, error: states.error, in_progress: states.in_progress },
    deliverability_rate: finished === 0 ? 0 : states.ok / finished,
    bounce_rate: 0,
    click_rate: 0,
  };
}

/** `payments_overview`: Gatehouse has no payments yet, so upstream's shape with zeros. */
export function paymentsOverview(days: string[]) {
  return {
    subscriptions_by_status: {},
    active_subscription_count: 0,
    total_one_time_purchases: 0,
    daily_subscriptions: days.map((date) => ({ date, activity: 0 })),
    revenue_cents: 0,
    mrr_cents: 0,
    total_orders: 0,
    checkout_conversion_rate: 0,
  };
}

/** `analytics_overview`: Gatehouse collects no page analytics yet, so upstream's shape with zeros. */
export function analyticsOverview(days: string[]) {
  return {
    daily_page_views: [],
    daily_clicks: [],
    daily_visitors: [],
    daily_anonymous_visitors_fallback: days.map((date) => ({ date, activity: 0 })),
    daily_revenue: days.map((date) => ({ date, new_cents: 0, refund_cents: 0 })),
    total_revenue_cents: 0,
    total_replays: 0,
    recent_replays: 0,
    visitors: 0,
    anonymous_visitors_fallback: 0,
    avg_session_seconds: 0,
    online_live: 0,
    revenue_per_visitor: 0,
    top_referrers: [],
    top_region: null,
  };
}
