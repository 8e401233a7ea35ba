import type { Kysely } from 'kysely';
import { noPlaces, openGeoIpDatabase, type PlaceLookup } from './lib/geoip.ts';
import type { StorageAdapter } from './storage/adapter.ts';
import type { Database } from './storage/tables.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createKeyRing, type KeyRing } from './tokens/keys.ts';
import { createRequestCache, REQUEST_CACHE_TABLES, type RequestCache } from './auth/request-cache.ts';
import { watchCachedTableWrites } from './auth/cached-table-writes.ts';
import type { AuthDirectory } from './auth/directory.ts';
import { hkdfSync } from 'node:crypto';

/**
 * Test-only replacement of an OAuth provider's endpoints, keyed by provider id, e.g.
 * `{ github: { authorizationEndpoint: 'http://127.0.0.1:4000/login/oauth/authorize', … } }`.
 * Only `createGatehouse` options can set it (never project config or environment variables), and
 * the runtime refuses it in the `production` environment.
 */
export type OAuthEndpointOverrides = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * Test-only: where the `stripe` client sends its API calls instead of api.stripe.com (its `host`,
 * `port` and `protocol` options), e.g. a loopback server answering the Stripe API.
 * Refused in the `production` environment, like OAuthEndpointOverrides.
 */
export interface StripeApiOverride {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** Structured log sink; one JSON object per line in the server (see server-bin). */
export interface Logger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export interface RuntimeOptions {
  /**
   * How long another process's project or key change may take to reach this one, in ms
   * (default 1000; 0 disables the cache). This process's own changes apply at once.
   */
  requestCacheTtlMs?: number;
  storage: StorageAdapter;
  /** Public base URL of the server, without `/api/v1`; used for `iss` and links. */
  baseUrl: string;
  /** The server secret every derived key comes from. */
  secret: string;
  clock?: Clock;
  /** Access-token lifetime in ms; default 600000 (10 min, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx). */
  accessTokenTtlMs?: number;
  /**
   * When true (tests), an operation raising a known error it did not declare answers 500, so
   * the test suite catches undeclared errors.
   */
  strictErrors?: boolean;
  /** `development` adds the cause to 500 bodies; `production` never sends internals. */
  environment?: 'development' | 'production' | 'test';
  logger?: Logger;
  /** Server-wide SMTP URL (GATEHOUSE_SMTP_URL) for projects with the `shared` email config; none keeps emails in the outbox. */
  smtpUrl?: string | null;
  /** Real-time polling interval of the email delivery worker in ms (default 1000). */
  emailPollIntervalMs?: number;
  /** Real-time polling interval of the webhook delivery worker in ms (default 1000). */
  webhookPollIntervalMs?: number;
  /** Tests only: OAuth provider endpoints pointed at loopback servers; refused in production. */
  oauthEndpointOverrides?: OAuthEndpointOverrides;
  /** Tests only: the Stripe API pointed at a loopback server; refused in production. */
  stripeApiOverride?: StripeApiOverride | null;
  /**
   * Whether dashboard (internal-project) sign-up stays open after the first owner, asked at each
   * sign-up so a host may follow its environment (`GATEHOUSE_DASHBOARD_SIGNUP`); default: closed.
   */
  dashboardSignUpOpen?: () => boolean;
  /**
   * Where Cloudflare Turnstile tokens are verified (core/bot-challenge): the operator's own
   * settings (GATEHOUSE_TURNSTILE_VERIFY_URL, GATEHOUSE_TURNSTILE_TIMEOUT), never a project's.
   * Default: Cloudflare's siteverify endpoint with a 3000 ms deadline.
   */
  turnstile?: { verifyUrl?: string | null; timeoutMs?: number | null };
  /**
   * Hosts (names or IP addresses, GATEHOUSE_OUTBOUND_PRIVATE_HOSTS) that a project's OpenID
   * provider may use in production mode though they are loopback, link-local or private: an
   * identity provider on the operator's private network. Default none (core/lib/outbound-fetch.ts).
   */
  outboundPrivateHosts?: readonly string[];
  /**
   * DNS servers (`host` or `host:port`, GATEHOUSE_DNS_SERVERS) that domain verification asks for
   * TXT records (core/team-domains, node's `dns.Resolver#setServers`); default: the system's.
   */
  dnsServers?: readonly string[];
  /**
   * A MaxMind DB file (GATEHOUSE_GEOIP_DATABASE: GeoLite2 / GeoIP2 / DB-IP City or Country) from
   * which sessions get an approximate place of their last use; read once at start, never a
   * network call. Default none: sessions carry no place.
   */
  geoipDatabase?: string | null;
  /**
   * The bearer secret of the cron routes (`/internal/email-queue-step`,
   * `/internal/failed-emails-digest`; GATEHOUSE_CRON_SECRET) and of the email health monitor
   * (`/health/email`; GATEHOUSE_EMAIL_MONITOR_SECRET). Default: none in production (the routes
   * answer 401), upstream's development values elsewhere (`mock_cron_secret`,
   * `this-secret-token-is-for-local-development-only`).
   */
  operatorSecrets?: { cron?: string | null; emailMonitor?: string | null };
}

/** Upstream's development-backend secrets of its cron and monitor routes (its .env.development). */
const DEVELOPMENT_OPERATOR_SECRETS = { cron: 'mock_cron_secret', emailMonitor: 'this-secret-token-is-for-local-development-only' };

/** Cloudflare's documented Turnstile server-side validation endpoint. */
export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/**
 * Services the domains add to the runtime, declared by the composition root (core/wiring.ts)
 * through declaration merging (`declare module './runtime.ts' { interface RuntimeServices { … } }`)
 * and built there: the kernel names none of them.
 */
export interface RuntimeServices {}

/** What the composition root hands `createRuntime`: the domains' services and the auth lookups. */
export type RuntimeWiring = RuntimeServices & { readonly directory: AuthDirectory };

/** The services every operation reaches through `ctx.runtime`: the kernel's, then the domains' (RuntimeServices). */
export interface Runtime extends RuntimeServices {
  readonly storage: StorageAdapter;
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly baseUrl: string;
  readonly keys: KeyRing;
  readonly accessTokenTtlMs: number;
  readonly strictErrors: boolean;
  readonly environment: 'development' | 'production' | 'test';
  readonly log: Logger;
  readonly smtpUrl: string | null;
  readonly emailPollIntervalMs: number;
  /** Project and key lookups of request authentication (core/auth/request-cache.ts). */
  readonly requestCache: RequestCache;
  /** What request authentication looks up in the domains (core/auth/directory.ts). */
  readonly directory: AuthDirectory;
  /**
   * A 32-byte key derived from the server secret for one purpose (HKDF-SHA256, RFC 5869, with
   * `info` naming the purpose), so each use of the secret gets an independent key.
   */
  deriveKey(info: string): Buffer;
  /** Real-time polling interval of the webhook delivery worker in ms (default 1000). */
  readonly webhookPollIntervalMs: number;
  /** Test-only OAuth endpoint overrides (empty outside tests). */
  readonly oauthEndpointOverrides: OAuthEndpointOverrides;
  /** Test-only Stripe API override (null outside tests). */
  readonly stripeApiOverride: StripeApiOverride | null;
  /** See RuntimeOptions.dashboardSignUpOpen. */
  dashboardSignUpOpen(): boolean;
  /** The Turnstile siteverify endpoint and its deadline in ms (see RuntimeOptions.turnstile). */
  readonly turnstile: { readonly verifyUrl: string; readonly timeoutMs: number };
  /** See RuntimeOptions.outboundPrivateHosts: lower-case, IPv6 without brackets. */
  readonly outboundPrivateHosts: ReadonlySet<string>;
  /** See RuntimeOptions.dnsServers: empty means the system's resolvers. */
  readonly dnsServers: readonly string[];
  /** See RuntimeOptions.operatorSecrets; null: the route refuses every caller. */
  readonly operatorSecrets: { readonly cron: string | null; readonly emailMonitor: string | null };
  /** The approximate place of a normalized client address (RuntimeOptions.geoipDatabase), or null. */
  readonly placeOf: PlaceLookup;
}

/** The kernel's own services: the runtime before the composition root adds the domains'. */
export type KernelRuntime = Omit<Runtime, keyof RuntimeWiring>;

/**
 * Builds the runtime from options; `wire` (the composition root's, core/wiring.ts) gets the
 * kernel's services and returns the domains' and the auth lookups.
 *
 * @throws Error for a test-only option (oauthEndpointOverrides, stripeApiOverride) in `production`.
 */
export function createRuntime(options: RuntimeOptions, wire: (kernel: KernelRuntime) => RuntimeWiring): Runtime {
  const environment = options.environment ?? 'production';
  if (options.oauthEndpointOverrides && Object.keys(options.oauthEndpointOverrides).length > 0 && environment === 'production') {
    throw new Error('oauthEndpointOverrides is a test-only option and cannot be used in the production environment');
  }
  if (options.stripeApiOverride && environment === 'production') {
    throw new Error('stripeApiOverride is a test-only option and cannot be used in the production environment');
  }
  const derived = new Map<string, Buffer>();
  const requestCache = createRequestCache(options.requestCacheTtlMs ?? 1000);
  // Every query of the core goes through this instance (transactions inherit its plugins), so
  // every write to a table the request cache reads is counted without the writer's help.
  const db = options.storage.db.withPlugin(watchCachedTableWrites(REQUEST_CACHE_TABLES, requestCache.noteWrite));
  const kernel: KernelRuntime = {
    storage: options.storage,
    db,
    clock: options.clock ?? systemClock,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    keys: createKeyRing(options.secret),
    accessTokenTtlMs: options.accessTokenTtlMs ?? 600_000,
    strictErrors: options.strictErrors ?? false,
    environment,
    log: options.logger ?? silentLogger,
    requestCache,
    outboundPrivateHosts: new Set(
      (options.outboundPrivateHosts ?? [])
        .map((h) =>
          h
            .trim()
            .replace(/^\[|\]$/g, '')
            .toLowerCase(),
        )
        .filter(Boolean),
    ),
    smtpUrl: options.smtpUrl ?? null,
    placeOf: options.geoipDatabase ? openGeoIpDatabase(options.geoipDatabase) : noPlaces,
    emailPollIntervalMs: options.emailPollIntervalMs ?? 1000,
    deriveKey(info) {
      let key = derived.get(info);
      if (!key) {
        key = Buffer.from(hkdfSync('sha256', options.secret, 'gatehouse', info, 32));
        derived.set(info, key);
      }
      return key;
    },
    webhookPollIntervalMs: options.webhookPollIntervalMs ?? 1000,
    oauthEndpointOverrides: options.oauthEndpointOverrides ?? {},
    stripeApiOverride: options.stripeApiOverride ?? null,
    dashboardSignUpOpen: options.dashboardSignUpOpen ?? (() => false),
    turnstile: { verifyUrl: options.turnstile?.verifyUrl || TURNSTILE_SITEVERIFY_URL, timeoutMs: options.turnstile?.timeoutMs ?? 3000 },
    dnsServers: [...(options.dnsServers ?? [])],
    operatorSecrets: {
      cron: options.operatorSecrets?.cron || (environment === 'production' ? null : DEVELOPMENT_OPERATOR_SECRETS.cron),
      emailMonitor:
        options.operatorSecrets?.emailMonitor || (environment === 'production' ? null : DEVELOPMENT_OPERATOR_SECRETS.emailMonitor),
    },
  };
  return { ...kernel, ...wire(kernel) };
}
