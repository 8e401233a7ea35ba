import { RateLimitError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { normalizeEmail } from '../lib/email.ts';
import type { OperationContext } from '../operations/define.ts';
import {
  effectiveLimit,
  failureDelayMs,
  LOCK_AFTER_FAILURES,
  THROTTLE_ROW_RETENTION_MS,
  type RateLimit,
  type RateLimitRule,
  type RateLimitsConfig,
} from './limits.ts';
import type { Runtime } from '../runtime.ts';
import { normalizeClientAddress } from '../lib/client-address.ts';
import { claimAttempt, deleteKey, pruneThrottleRows, takeToken } from './queries.ts';

const PER_ADDRESS: ReadonlySet<RateLimitRule> = new Set(['sign_in_per_address', 'sign_up_per_address', 'anonymous_sign_up_per_address']);

/** Rows of one project, rule and subject share a key; subjects are hashed, never stored in clear. */
function keyOf(projectId: string, rule: string, subject: string): string {
  return sha256Hex(`${projectId}\u0000${rule}\u0000${subject}`);
}

let lastPrune = 0;
const PRUNE_EVERY_MS = 60_000;

/** Deletes stale throttling rows at most once a minute per process (on the request path, one cheap delete). */
async function pruneNowAndThen(ctx: OperationContext): Promise<void> {
  const now = Date.now();
  if (now - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = now;
  await pruneThrottleRows(ctx.db, ctx.now - THROTTLE_ROW_RETENTION_MS);
}

/**
 * Takes one token from the project's bucket for `rule` and `subject`, or throws 429 with
 * `Retry-After`. Per-address rules use `ctx.clientAddress` as the subject and
 * apply to client requests only; a rule the project turned off, or a missing subject, is a no-op.
 * State lives in the database (one atomic upsert), so the limit holds across processes. Uses
 * `ctx.db`: call it before opening the operation's transaction, so a refused or failing request
 * still spends its token.
 *
 * @param subject what the rule counts by (an email, a project id); ignored for per-address rules.
 * @throws RateLimitError (429) when the bucket is empty.
 */
export async function enforceRateLimit(ctx: OperationContext, rule: RateLimitRule, subject: string | null = null): Promise<void> {
  const auth = ctx.auth;
  if (!auth) return;
  const perAddress = PER_ADDRESS.has(rule);
  if (perAddress && auth.accessType !== 'client') return;
  const who = perAddress ? ctx.clientAddress : subject;
  if (!who) return;
  const limit = effectiveLimit(auth.project.config.rateLimits, rule, ctx.runtime.environment);
  if (!limit) return;
  await pruneNowAndThen(ctx);
  const refillPerMs = limit.limit / (limit.windowSeconds * 1000);
  // The limit is part of the key: a project that changes a limit starts from a full bucket.
  const result = await takeToken(
    ctx.db,
    keyOf(auth.project.id, `${rule}/${limit.limit}/${limit.windowSeconds}`, who),
    limit.limit,
    refillPerMs,
    ctx.now,
  );
  if (!result.allowed) {
    const waitMs = (1 - result.tokens) / refillPerMs;
    throw new RateLimitError('Too many requests. Please wait before trying again.', Math.max(1, Math.ceil(waitMs / 1000)));
  }
}

/**
 * A fixed per-address limit for a public route that may be called without any project
 * credentials (e.g. `POST /internal/feedback`): `limit` requests per client address in
 * `windowSeconds`, a token bucket in the database like the project rules (so it holds across
 * processes), keyed by `scope` under the internal project. No address, no limit.
 *
 * @throws RateLimitError (429) when the bucket is empty.
 */
export async function enforcePublicAddressLimit(ctx: OperationContext, scope: string, limit: RateLimit): Promise<void> {
  const who = ctx.clientAddress;
  if (!who) return;
  await pruneNowAndThen(ctx);
  const refillPerMs = limit.limit / (limit.windowSeconds * 1000);
  const result = await takeToken(
    ctx.db,
    keyOf('internal', `public:${scope}/${limit.limit}/${limit.windowSeconds}`, who),
    limit.limit,
    refillPerMs,
    ctx.now,
  );
  if (!result.allowed) {
    throw new RateLimitError(
      'Too many requests. Please wait before trying again.',
      Math.max(1, Math.ceil((1 - result.tokens) / refillPerMs / 1000)),
    );
  }
}

/**
 * The limits every auth route that emails a code or link applies before doing anything else
 * (so the answer is the same whether or not the address has an account): per recipient, then
 * per project.
 *
 * @throws RateLimitError (429).
 */
export async function enforceEmailLimits(ctx: OperationContext, recipient: string): Promise<void> {
  const auth = ctx.auth;
  if (!auth) return;
  await enforceRateLimit(ctx, 'email_per_recipient', normalizeEmail(recipient));
  await enforceRateLimit(ctx, 'email_per_project', auth.project.id);
}

/** What a failed-attempt counter guards: a password (counted per email) or a second factor (per user id). */
export type SignInFactor = 'password' | 'mfa';

/**
 * Guards one sign-in attempt (NIST SP 800-63B-4 §3.2.2; see limits.ts): claims the attempt,
 * counted in advance as a failure, and returns a function to call when the secret was right (it
 * clears the count). Passwords are counted per email, whether or not it has an account, so the
 * answers reveal nothing; second factors per user. Throws before any secret is checked when the
 * attempt must wait.
 *
 * @throws RateLimitError (429) with `Retry-After` during a delay; without it once the account's
 *   password sign-in is suspended (reset the password to lift it).
 */
export async function claimSignInAttempt(
  ctx: OperationContext,
  factor: SignInFactor,
  subject: string,
): Promise<{ succeeded(): Promise<void> }> {
  const auth = ctx.auth;
  const noop = { succeeded: async () => {} };
  if (!auth || !(auth.project.config.rateLimits?.enabled ?? true)) return noop;
  await pruneNowAndThen(ctx);
  const key = failureKey(auth.project.id, factor, subject);
  const result = await claimAttempt(ctx.db, key, LOCK_AFTER_FAILURES, failureDelayMs, ctx.now);
  if (!result.allowed) {
    if (result.tokens >= LOCK_AFTER_FAILURES) {
      throw new RateLimitError(
        factor === 'password'
          ? 'Too many failed sign-in attempts for this account. Reset the password (or sign in another way) to continue.'
          : 'Too many failed second-factor attempts for this account. Sign in again later or use a recovery code.',
        null,
      );
    }
    throw new RateLimitError(
      'Too many failed sign-in attempts. Please wait before trying again.',
      Math.max(1, Math.ceil((result.updatedAt - ctx.now) / 1000)),
    );
  }
  return { succeeded: () => deleteKey(ctx.db, key) };
}

/**
 * Clears the failed-sign-in count of `email` (after a password reset or change, or a sign-in
 * that proved the address another way). Joins the caller's transaction.
 */
export async function clearSignInFailures(ctx: OperationContext, projectId: string, email: string): Promise<void> {
  await deleteKey(ctx.db, failureKey(projectId, 'password', email));
}

function failureKey(projectId: string, factor: SignInFactor, subject: string): string {
  return keyOf(projectId, `${factor}_failures`, factor === 'password' ? normalizeEmail(subject) : subject);
}

/** What a host outside the operations (the identity provider's entry) throttles with. */
export interface ThrottleScope {
  runtime: Runtime;
  projectId: string;
  /** The project's throttling settings (`config.rateLimits`). */
  rateLimits: RateLimitsConfig | undefined;
}

/**
 * Takes one token from the project's bucket for `rule` and `subject` (a client address, …) for a
 * request that is not an operation (the identity provider's endpoints). Answers null when allowed
 * (or the rule is off, or there is no subject), else the seconds to wait (`Retry-After`). The
 * caller answers in its own protocol's format (RFC 6749 JSON and 429 there).
 */
export async function takeRateLimit(scope: ThrottleScope, rule: RateLimitRule, subject: string | null): Promise<number | null> {
  if (!subject) return null;
  // Per-address rules count an IPv6 client per /64, as the operations' do.
  if (rule.endsWith('_per_address')) subject = normalizeClientAddress(subject);
  if (!subject) return null;
  const limit = effectiveLimit(scope.rateLimits, rule, scope.runtime.environment);
  if (!limit) return null;
  return takeBucket(scope, `${rule}/${limit.limit}/${limit.windowSeconds}`, subject, limit);
}

/**
 * A fixed-interval bucket (one token, refilled every `intervalSeconds`) keyed by `name` and
 * `subject` under the project, whatever the project's overrides: RFC 8628 §3.5's polling interval
 * of one device code. Null when allowed, else the seconds to wait; off when the project turned
 * throttling off.
 */
export async function takeIntervalToken(
  scope: ThrottleScope,
  name: string,
  subject: string,
  intervalSeconds: number,
): Promise<number | null> {
  if (!(scope.rateLimits?.enabled ?? true)) return null;
  return takeBucket(scope, `interval:${name}/${intervalSeconds}`, subject, { limit: 1, windowSeconds: intervalSeconds });
}

async function takeBucket(scope: ThrottleScope, rule: string, subject: string, limit: RateLimit): Promise<number | null> {
  const now = scope.runtime.clock.now();
  if (Date.now() - lastPrune >= PRUNE_EVERY_MS) {
    lastPrune = Date.now();
    await pruneThrottleRows(scope.runtime.db, now - THROTTLE_ROW_RETENTION_MS);
  }
  const refillPerMs = limit.limit / (limit.windowSeconds * 1000);
  const result = await takeToken(scope.runtime.db, keyOf(scope.projectId, rule, subject), limit.limit, refillPerMs, now);
  return result.allowed ? null : Math.max(1, Math.ceil((1 - result.tokens) / refillPerMs / 1000));
}
