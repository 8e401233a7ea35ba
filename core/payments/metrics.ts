import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { parseProduct } from './model.ts';
import { countPurchaseCodes, listProjectPurchaseFacts } from './queries.ts';

/**
 * The `payments_overview` of `GET /internal/metrics` (upstream stack-shared
 * `interface/admin-metrics.ts`), from the project's purchases: subscriptions by status, active
 * subscriptions, one-off purchases, subscriptions started per day, revenue and monthly recurring
 * revenue in US cents (paid, not refunded, not test mode; other currencies are not converted),
 * orders, and the share of purchase codes that became a purchase.
 *
 * @param days the `YYYY-MM-DD` days of the daily series, oldest first.
 */
export async function paymentsMetrics(db: Kysely<Database>, projectId: string, days: string[]) {
  const rows = await listProjectPurchaseFacts(db, projectId);
  const codes = await countPurchaseCodes(db, projectId);
  const subscriptions = rows.filter((r) => r.kind === 'subscription');
  const byStatus: Record<string, number> = {};
  for (const s of subscriptions) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  const perDay = new Map<string, number>();
  for (const s of subscriptions) {
    const day = new Date(Number(s.created_at)).toISOString().slice(0, 10);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  const paid = rows.filter((r) => !r.test_mode && r.status !== 'refunded' && r.currency === 'USD' && r.unit_amount_minor !== null);
  const revenue = paid.reduce((sum, r) => sum + Number(r.unit_amount_minor) * r.quantity, 0);
  let mrr = 0;
  for (const r of paid) {
    if (r.kind !== 'subscription' || (r.status !== 'active' && r.status !== 'trialing')) continue;
    const prices = parseProduct(r.product_id ?? 'inline', JSON.parse(r.product)).prices;
    const interval = prices !== 'include-by-default' && r.price_id ? prices[r.price_id]?.interval : undefined;
    if (!interval) continue;
    // Monthly share of the price: per month, per year / 12, per week × 52 / 12, per day × 365 / 12.
    const perMonth = { day: 365 / 12, week: 52 / 12, month: 1, year: 1 / 12 }[interval[1]] / interval[0];
    mrr += Math.round(Number(r.unit_amount_minor) * r.quantity * perMonth);
  }
  return {
    subscriptions_by_status: byStatus,
    active_subscription_count: subscriptions.filter((s) => s.status === 'active' || s.status === 'trialing').length,
    total_one_time_purchases: rows.filter((r) => r.kind === 'one_time' && r.status !== 'refunded').length,
    daily_subscriptions: days.map((date) => ({ date, activity: perDay.get(date) ?? 0 })),
    revenue_cents: revenue,
    mrr_cents: mrr,
    total_orders: rows.filter((r) => !r.test_mode).length,
    checkout_conversion_rate: codes.total === 0 ? 0 : codes.used / codes.total,
  };
}
