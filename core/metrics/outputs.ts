import * as v from 'valibot';
import { component, JsonOutput, MillisOutput, NullableString } from '../operations/output.ts';
import { PaymentsOverviewOutput } from '../payments/index.ts';
import { ServerUserOutput } from '../users/index.ts';

/**
 * Output schemas of the metrics operations, in upstream's shapes (stack-shared
 * `interface/admin-metrics.ts`). Strict test mode checks every answer against them.
 */

const Count = v.pipe(v.number(), v.integer());

/** One point of a series: a `YYYY-MM-DD` day (or an hour's ISO time) and its count. */
export const DataPointOutput = component('MetricsDataPoint', v.strictObject({ date: v.string(), activity: Count }));

const Series = v.array(DataPointOutput);

/** Always empty: Gatehouse collects no page analytics (docs/compatibility.md). */
const EmptyList = v.pipe(v.array(JsonOutput), v.maxLength(0));

/** Upstream's `MetricsRecentUserSchema`. */
const RecentUserOutput = v.strictObject({
  id: v.string(),
  display_name: NullableString,
  primary_email: NullableString,
  profile_image_url: NullableString,
  signed_up_at_millis: MillisOutput,
  last_active_at_millis: v.nullable(MillisOutput),
});

const ActivitySplitOutput = v.strictObject({ total: Series, new: Series, retained: Series, reactivated: Series });

const AuthOverviewOutput = v.strictObject({
  verified_users: Count,
  unverified_users: Count,
  anonymous_users: Count,
  total_teams: Count,
  mau: Count,
  daily_active_users_split: ActivitySplitOutput,
  daily_active_teams_split: ActivitySplitOutput,
  total_users_filtered: Count,
});

const EmailOverviewOutput = v.strictObject({
  emails_by_status: v.record(v.picklist(['ok', 'error', 'in-progress']), Count),
  total_emails: Count,
  daily_emails: Series,
  daily_emails_by_status: v.array(v.strictObject({ date: v.string(), ok: Count, error: Count, in_progress: Count })),
  emails_sent: Count,
  recent_emails: v.array(v.strictObject({ id: v.string(), status: v.string(), subject: v.string(), created_at_millis: MillisOutput })),
  deliverability_status: v.strictObject({ delivered: Count, bounced: Count, error: Count, in_progress: Count }),
  deliverability_rate: v.number(),
  bounce_rate: v.number(),
  click_rate: v.number(),
});

const AnalyticsOverviewOutput = v.strictObject({
  daily_page_views: EmptyList,
  daily_clicks: EmptyList,
  daily_visitors: EmptyList,
  hourly_page_views: EmptyList,
  hourly_active_users: EmptyList,
  hourly_visitors: EmptyList,
  daily_anonymous_visitors_fallback: Series,
  daily_revenue: v.array(v.strictObject({ date: v.string(), new_cents: Count, refund_cents: Count })),
  total_revenue_cents: Count,
  total_replays: Count,
  recent_replays: Count,
  visitors: Count,
  anonymous_visitors_fallback: Count,
  avg_session_seconds: v.number(),
  bounce_rate: v.number(),
  daily_bounce_rate: EmptyList,
  daily_avg_session_seconds: EmptyList,
  online_live: Count,
  revenue_per_visitor: v.number(),
  top_referrers: EmptyList,
  top_region: v.null(),
  top_regions: EmptyList,
  top_browsers: EmptyList,
  top_operating_systems: EmptyList,
  top_devices: EmptyList,
});

/** The dashboard overview of `GET /internal/metrics`. */
export const MetricsOutput = component(
  'Metrics',
  v.strictObject({
    total_users: Count,
    live_users: Count,
    daily_users: Series,
    daily_active_users: Series,
    hourly_users: Series,
    hourly_active_users: Series,
    users_by_country: v.record(v.string(), Count),
    active_users_by_country: v.record(v.string(), v.array(RecentUserOutput)),
    recently_registered: v.array(ServerUserOutput),
    recently_active: v.array(ServerUserOutput),
    login_methods: v.array(v.strictObject({ method: v.string(), count: Count })),
    auth_overview: AuthOverviewOutput,
    payments_overview: PaymentsOverviewOutput,
    email_overview: EmailOverviewOutput,
    analytics_overview: AnalyticsOverviewOutput,
  }),
);
