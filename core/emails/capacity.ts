import type { Runtime } from '../runtime.ts';

/** Sent, bounced and spam-reported emails of one time window. */
export interface WindowStats {
  sent: number;
  bounced: number;
  marked_as_spam: number;
}

/** How long a capacity boost lasts, and by how much it multiplies the rate (upstream's values). */
export const BOOST_DURATION_MS = 4 * 60 * 60 * 1000;
const BOOST_MULTIPLIER = 4;

/**
 * Emails a project may send per hour before its own history counts: upstream's default (200), or
 * its development backend's (100,000) outside production, so test suites are not held back.
 */
function defaultCapacityPerHour(runtime: Runtime): number {
  return runtime.environment === 'production' ? 200 : 100_000;
}

/** 1 with no sends; else 1 minus the failure rate (a spam report weighs 50 bounces), at least 0.1. */
function penaltyFactor(w: WindowStats): number {
  if (w.sent === 0) return 1;
  return Math.max(0.1, Math.min(1, 1 - (w.bounced + 50 * w.marked_as_spam) / w.sent));
}

/**
 * A project's sending capacity as upstream computes it (`lib/email-delivery-stats`): the default
 * hourly capacity plus four times the last month's average hourly volume, times the worst penalty
 * of the last hour, day and week, never below a quarter of the default; per second, times 4 while
 * a boost is active.
 */
export function emailCapacity(
  runtime: Runtime,
  stats: { hour: WindowStats; day: WindowStats; week: WindowStats; month: WindowStats },
  boostExpiresAt: number | null,
  now: number,
) {
  const base = defaultCapacityPerHour(runtime);
  const penalty = Math.min(penaltyFactor(stats.week), penaltyFactor(stats.day), penaltyFactor(stats.hour));
  const perHour = Math.max((base + (4 * stats.month.sent) / 30 / 24) * penalty, base / 4);
  const boosted = boostExpiresAt !== null && boostExpiresAt > now;
  const multiplier = boosted ? BOOST_MULTIPLIER : 1;
  return {
    rate_per_second: (perHour / 60 / 60) * multiplier,
    boost_multiplier: multiplier,
    penalty_factor: penalty,
    is_boost_active: boosted,
    boost_expires_at: boostExpiresAt === null ? null : new Date(boostExpiresAt).toISOString(),
  };
}
