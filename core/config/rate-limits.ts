/**
 * The shape of a project's throttling settings in the config model (`rateLimits`, wire
 * `config.rate_limits`): the rule names, one limit, and the per-project switch and overrides.
 * The config model owns the shape; the throttle domain (core/throttle/limits.ts) owns the
 * defaults and what each rule counts, and re-exports these.
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
 * - `ai_chat_per_owner`: questions to the dashboard assistant per owner;
 * - `oauth_token_per_address`: requests to the identity provider's token, introspection and
 *   revocation endpoints per client address (issue 31);
 * - `oauth_device_per_address`: device authorization requests and user-code submissions on the
 *   identity provider per client address (RFC 8628 §5.1: user codes must not be guessable by
 *   trying them).
 *
 * Per-address rules of the operations apply to client requests only (server and admin callers hold secret keys and
 * often sign users in from one backend address); the others apply to every caller.
 */
export const RATE_LIMIT_RULES = [
  'sign_in_per_address',
  'sign_up_per_address',
  'anonymous_sign_up_per_address',
  'email_per_recipient',
  'email_per_project',
  'ai_chat_per_owner',
  'oauth_token_per_address',
  'oauth_device_per_address',
] as const;
export type RateLimitRule = (typeof RATE_LIMIT_RULES)[number];

/** A project's throttling settings (`config.rate_limits` on the wire). */
export interface RateLimitsConfig {
  /** False turns every limit of the project off, failed-sign-in backoff included. */
  enabled: boolean;
  /** Rules whose limit differs from the default. */
  overrides: Partial<Record<RateLimitRule, RateLimit>>;
}

/** The throttling settings of a project that set none: on, every rule at its default. */
export function defaultRateLimitsConfig(): RateLimitsConfig {
  return { enabled: true, overrides: {} };
}
