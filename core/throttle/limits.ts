/**
 * The throttling rules, their defaults, and a project's overrides (issue 12 finding 4;
 * docs/security.md "Throttling"). Every limit is a token bucket: `limit` requests at once, refilled
 * evenly over `window_seconds` (so `limit` per window on average, never more than `limit` in a burst).
 */

/** One limit: a bucket of `limit` tokens refilled over `windowSeconds`. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

/**
 * What each rule counts, and by which subject:
 * - `sign_in_per_address`: sign-in attempts (password, OTP / magic-link code, MFA code) per client address;
 * - `sign_up_per_address`: password sign-ups per client address;
 * - `anonymous_sign_up_per_address`: anonymous sign-ups per client address;
 * - `email_per_recipient`: emails sent by an auth route (OTP / magic link, password reset, email
 *   verification, team invitation, sign-in invitation) to one recipient;
 * - `email_per_project`: such emails per project;
 * - `ai_chat_per_owner`: questions to the dashboard assistant per owner.
 *
 * Per-address rules apply to client requests only (server and admin callers hold secret keys and
 * often sign users in from one backend address); the others apply to every caller.
 */
export const RATE_LIMIT_RULES = [
  'sign_in_per_address', 'sign_up_per_address', 'anonymous_sign_up_per_address', 'email_per_recipient', 'email_per_project',
  'ai_chat_per_owner',
] as const;
export type RateLimitRule = (typeof RATE_LIMIT_RULES)[number];

/** Defaults: on for every project (docs/security.md lists them). */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitRule, RateLimit>> = {
  sign_in_per_address: { limit: 60, windowSeconds: 300 },
  sign_up_per_address: { limit: 30, windowSeconds: 3600 },
  anonymous_sign_up_per_address: { limit: 60, windowSeconds: 3600 },
  email_per_recipient: { limit: 10, windowSeconds: 3600 },
  email_per_project: { limit: 1000, windowSeconds: 3600 },
  ai_chat_per_owner: { limit: 30, windowSeconds: 600 },
};

/** A project's throttling settings (`config.rate_limits` on the wire). */
export interface RateLimitsConfig {
  /** False turns every limit of the project off, failed-sign-in backoff included. */
  enabled: boolean;
  /** Rules whose limit differs from the default. */
  overrides: Partial<Record<RateLimitRule, RateLimit>>;
}

export function defaultRateLimitsConfig(): RateLimitsConfig {
  return { enabled: true, overrides: {} };
}

/** The limit of `rule` for a project, or null when the project turned throttling off. */
export function effectiveLimit(config: RateLimitsConfig | undefined, rule: RateLimitRule): RateLimit | null {
  const c = config ?? defaultRateLimitsConfig();
  if (!c.enabled) return null;
  return c.overrides[rule] ?? DEFAULT_RATE_LIMITS[rule];
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
