/**
 * Throttling: token buckets and failed-sign-in counters kept in the
 * database, so limits hold across processes; 429 in upstream's shape with `Retry-After`.
 * @see docs/security.md "Throttling"
 */
export {
  enforceRateLimit,
  enforcePublicAddressLimit,
  enforceEmailLimits,
  claimSignInAttempt,
  clearSignInFailures,
  takeRateLimit,
  takeIntervalToken,
} from './throttle.ts';
