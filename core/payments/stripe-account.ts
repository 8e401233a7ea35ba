import type Stripe from 'stripe';
import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import { open, seal } from '../lib/secret-box.ts';
import type { Runtime } from '../runtime.ts';
import type { Database } from '../storage/tables.ts';
import { findStripeAccount } from './queries.ts';

/**
 * The project's own Stripe account ("connect your own Stripe account" instead of Stack's
 * Connect onboarding). Its secret key and webhook signing secret belong to the environment (one
 * per project and branch) and are stored only sealed (AES-256-GCM under a key derived from the
 * server secret per project and branch, the row's identity as associated data); no route ever
 * answers them, only a hint (`sk_test_…4242`).
 */

const keyFor = (runtime: Runtime, projectId: string, branchId: string) => runtime.deriveKey(`payments/stripe/${projectId}/${branchId}`);
const aad = (projectId: string, branchId: string, field: string) => `${projectId}\n${branchId}\n${field}`;

export function sealStripeSecret(
  runtime: Runtime,
  projectId: string,
  branchId: string,
  field: 'secret_key' | 'webhook_secret',
  value: string,
): string {
  return seal(keyFor(runtime, projectId, branchId), value, aad(projectId, branchId, field));
}

function openStripeSecret(
  runtime: Runtime,
  projectId: string,
  branchId: string,
  field: 'secret_key' | 'webhook_secret',
  sealed: string,
): string | null {
  return open(keyFor(runtime, projectId, branchId), sealed, aad(projectId, branchId, field));
}

/** `sk_test_…4242`: the key's mode and last four characters. */
export function secretKeyHint(secretKey: string): string {
  const prefix = /^(sk|rk)_(test|live)_/.exec(secretKey)?.[0] ?? '';
  return `${prefix}…${secretKey.slice(-4)}`;
}

/**
 * A `stripe` client for a secret key. With the runtime's test-only override, its API calls go to
 * that host, port and protocol (the client's own `host` / `port` / `protocol` options). The
 * `stripe` package is imported on first use (about 10 MB resident a server without payments does
 * not pay; docs/benchmarks.md "Start time and memory").
 */
export async function stripeClient(runtime: Runtime, secretKey: string): Promise<Stripe> {
  const o = runtime.stripeApiOverride;
  const { default: StripeClient } = await import('stripe');
  const client = new StripeClient(secretKey, {
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: 'Gatehouse' },
    ...(o ? { host: o.host, port: o.port, protocol: o.protocol } : {}),
  });
  return withStripeErrorsAsKnown(client, runtime);
}

/** The `stripe` error types that mean Stripe was not reached or not able to answer (after the client's own retry). */
const UNAVAILABLE_TYPES = new Set(['StripeConnectionError', 'StripeAPIError', 'StripeRateLimitError']);

/**
 * The known error for a failed Stripe call, or undefined for one that stays an internal error (a
 * bad key, a request Stripe finds invalid: Gatehouse's own mistake). Stripe's error types:
 * https://docs.stripe.com/error-handling#error-types
 */
function knownStripeError(error: unknown): KnownError | undefined {
  const e = error as { type?: unknown; message?: unknown; decline_code?: unknown } | null;
  if (typeof e?.type !== 'string') return undefined;
  if (UNAVAILABLE_TYPES.has(e.type)) return new KnownError('STRIPE_UNAVAILABLE');
  if (e.type === 'StripeCardError') {
    return new KnownError('STRIPE_CARD_DECLINED', {
      message: typeof e.message === 'string' ? e.message : 'The card was declined.',
      decline_code: typeof e.decline_code === 'string' ? e.decline_code : null,
    });
  }
  if (e.type === 'StripeIdempotencyError') return new KnownError('STRIPE_IDEMPOTENCY_CONFLICT');
  return undefined;
}

/**
 * `client` with every API call's failure that is not Gatehouse's own mistake turned into a known
 * error (the `stripe` error kept as `cause` and its message in the log), so no operation answers
 * 500 for it: Stripe out of reach (no connection or timeout, a 5xx, a 429) is STRIPE_UNAVAILABLE
 * (503, retryable), a declined card STRIPE_CARD_DECLINED (402), a retry that differs from the
 * first attempt STRIPE_IDEMPOTENCY_CONFLICT (409). Other failures (a bad key, an invalid request)
 * and synchronous helpers (`webhooks.constructEvent`) are left as they are.
 */
function withStripeErrorsAsKnown(client: Stripe, runtime: Runtime): Stripe {
  const mapped = (error: unknown): never => {
    const known = knownStripeError(error);
    if (!known) throw error;
    const type = (error as { type: string }).type;
    runtime.log.warn(
      { err: error instanceof Error ? error.message : String(error), stripe_error: type, code: known.code },
      known.code === 'STRIPE_UNAVAILABLE' ? 'Stripe unavailable' : 'Stripe refused the call',
    );
    known.cause = error;
    throw known;
  };
  // Namespaces nest (`stripe.checkout.sessions.create`): every object reached from the client is
  // wrapped the same way, once.
  const wrapped = new WeakMap<object, object>();
  const wrap = <T extends object>(target: T): T => {
    let proxy = wrapped.get(target);
    if (!proxy) {
      proxy = new Proxy(target, {
        get(inner, name) {
          // Read from, and call with, the real object: the `stripe` code never sees a proxy as `this`.
          const value: unknown = Reflect.get(inner, name);
          if (typeof value === 'object' && value !== null) return name === 'webhooks' || name === 'errors' ? value : wrap(value);
          if (typeof value !== 'function') return value;
          if (inner === client) return (value as (...a: unknown[]) => unknown).bind(inner);
          return (...args: unknown[]) => {
            const result: unknown = (value as (...a: unknown[]) => unknown).apply(inner, args);
            return result instanceof Promise ? result.catch(mapped) : result;
          };
        },
      });
      wrapped.set(target, proxy);
    }
    return proxy as T;
  };
  return wrap(client);
}

export interface ConnectedStripe {
  stripe: Stripe;
  accountId: string | null;
  /** The webhook signing secret (`whsec_…`), or null when none was given. */
  webhookSecret: string | null;
  secretKeyHint: string;
}

/** The connected Stripe account of a project and branch, or null when none is connected. */
export async function connectedStripe(
  runtime: Runtime,
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
): Promise<ConnectedStripe | null> {
  const row = await findStripeAccount(db, projectId, branchId);
  if (!row) return null;
  const secretKey = openStripeSecret(runtime, projectId, branchId, 'secret_key', row.secret_key_sealed);
  if (secretKey === null) return null;
  const webhookSecret =
    row.webhook_secret_sealed === null ? null : openStripeSecret(runtime, projectId, branchId, 'webhook_secret', row.webhook_secret_sealed);
  return { stripe: await stripeClient(runtime, secretKey), accountId: row.account_id, webhookSecret, secretKeyHint: row.secret_key_hint };
}

/** @throws STRIPE_ACCOUNT_INFO_NOT_FOUND when no Stripe account is connected. */
export async function requireConnectedStripe(
  runtime: Runtime,
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
): Promise<ConnectedStripe> {
  const connected = await connectedStripe(runtime, db, projectId, branchId);
  if (!connected) throw new KnownError('STRIPE_ACCOUNT_INFO_NOT_FOUND');
  return connected;
}
