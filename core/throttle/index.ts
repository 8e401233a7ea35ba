/**
 * Throttling (issue 12 finding 4): token buckets and failed-sign-in counters kept in the
 * database, so limits hold across processes; 429 in upstream's shape with `Retry-After`.
 * @see docs/security.md "Throttling"
 */
export { enforceRateLimit, enforcePublicAddressLimit, enforceEmailLimits, claimSignInAttempt, clearSignInFailures, type SignInFactor } from './throttle.ts';
export {
  RATE_LIMIT_RULES, DEFAULT_RATE_LIMITS, DEVELOPMENT_RATE_LIMITS, defaultRateLimitsConfig, effectiveLimit, failureDelayMs,
  FREE_FAILURES, MAX_DELAY_MS, LOCK_AFTER_FAILURES,
  type RateLimit, type RateLimitRule, type RateLimitsConfig,
} from './limits.ts';
