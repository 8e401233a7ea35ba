/**
 * The throttling rules, their defaults, and a project's overrides (docs/security.md "Throttling"). Every limit is a token bucket: `limit` requests at once, refilled
 * evenly over `window_seconds` (so `limit` per window on average, never more than `limit` in a burst).
 */

import { defaultRateLimitsConfig, type RateLimit, type RateLimitRule, type RateLimitsConfig } from '../config/rate-limits.ts';

export { defaultRateLimitsConfig, type RateLimit, type RateLimitRule, type RateLimitsConfig };

/** Defaults: on for every project (docs/security.md lists them). */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitRule, RateLimit>> = {
  sign_in_per_address: { limit: 60, windowSeconds: 300 },
  sign_up_per_address: { limit: 30, windowSeconds: 3600 },
  anonymous_sign_up_per_address: { limit: 60, windowSeconds: 3600 },
  email_per_recipient: { limit: 10, windowSeconds: 3600 },
  email_per_project: { limit: 1000, windowSeconds: 3600 },
  ai_chat_per_owner: { limit: 30, windowSeconds: 600 },
  oauth_token_per_address: { limit: 3000, windowSeconds: 60 },
  oauth_device_per_address: { limit: 60, windowSeconds: 300 },
};

/**
 * The defaults when the server runs with `GATEHOUSE_ENVIRONMENT=development`: high enough for a
 * test suite that signs many users up from one address and mails one catcher (as upstream's e2e
 * tests do against its development backend), and still on. The assistant keeps its production
 * limit (its questions cost money), and failed-sign-in backoff is the same in every environment.
 * A project's own overrides win in every environment.
 */
export const DEVELOPMENT_RATE_LIMITS: Readonly<Record<RateLimitRule, RateLimit>> = {
  sign_in_per_address: { limit: 6000, windowSeconds: 300 },
  sign_up_per_address: { limit: 3000, windowSeconds: 3600 },
  anonymous_sign_up_per_address: { limit: 6000, windowSeconds: 3600 },
  email_per_recipient: { limit: 1000, windowSeconds: 3600 },
  email_per_project: { limit: 100_000, windowSeconds: 3600 },
  ai_chat_per_owner: DEFAULT_RATE_LIMITS.ai_chat_per_owner,
  oauth_token_per_address: { limit: 300_000, windowSeconds: 60 },
  oauth_device_per_address: { limit: 6000, windowSeconds: 300 },
};

/**
 * The limit of `rule` for a project: its override, else the default of the server's environment
 * (DEVELOPMENT_RATE_LIMITS in `development`, DEFAULT_RATE_LIMITS otherwise); null when the project
 * turned throttling off.
 */
export function effectiveLimit(
  config: RateLimitsConfig | undefined,
  rule: RateLimitRule,
  environment: 'development' | 'production' | 'test' = 'production',
): RateLimit | null {
  const c = config ?? defaultRateLimitsConfig();
  if (!c.enabled) return null;
  return c.overrides[rule] ?? (environment === 'development' ? DEVELOPMENT_RATE_LIMITS : DEFAULT_RATE_LIMITS)[rule];
}

/**
 * Failed password sign-ins per account (NIST SP 800-63B-4 §3.2.2; ASVS 5.0 V6.3.1): the first
 * `FREE_FAILURES` consecutive failures cost nothing; after the n-th (n ≥ FREE_FAILURES) the next
 * attempt waits 2^(n − FREE_FAILURES) s, at most `MAX_DELAY_MS`; after `LOCK_AFTER_FAILURES`
 * consecutive failures password sign-in is refused until the password is reset (or changed), the
 * user signs in another way, or `THROTTLE_ROW_RETENTION_MS` pass. Counted per email, known or not,
 * so the answers do not reveal which addresses have accounts.
 */
export const FREE_FAILURES = 5;
export const MAX_DELAY_MS = 60_000;
export const LOCK_AFTER_FAILURES = 100;

/** Delay in ms before the attempt that follows the n-th consecutive failure. */
export function failureDelayMs(n: number): number {
  if (n < FREE_FAILURES) return 0;
  return Math.min(1000 * 2 ** (n - FREE_FAILURES), MAX_DELAY_MS);
}

/** Throttling rows untouched this long are deleted (a full bucket, an expired delay or lock), in ms. */
export const THROTTLE_ROW_RETENTION_MS = 24 * 60 * 60 * 1000;
