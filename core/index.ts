/// <reference types="node" preserve="true" />
import { migrateToLatest, type StorageAdapter } from './storage/adapter.ts';
import type { Logger, Runtime } from './runtime.ts';
import { createWiredRuntime } from './wiring.ts';
import { loadServerSecret } from './lib/server-secret.ts';
import type { CoreHooks } from './hooks.ts';
import type { Clock } from './lib/clock.ts';
import { operations } from './operations/registry.ts';
import { invokeOperation } from './operations/execute.ts';
import type { Credentials } from './auth/credentials.ts';
import type { AnyOperation } from './operations/define.ts';
import { ensureInternalProject, type SeedKeys } from './projects/seed-internal.ts';
import type { ProjectKeyValues } from './internal-api-keys/generate.ts';
import { startEmailWorker, stopEmailWorker } from './emails/worker.ts';
import { startWebhookWorker, stopWebhookWorker } from './webhooks/worker.ts';
import { startMetadataRefresh, stopMetadataRefresh } from './sso/index.ts';
import { startStripeOutboxWorker, stopStripeOutboxWorker } from './payments/index.ts';
import { findProject, type Project } from './projects/index.ts';
import { loadImage } from './images/index.ts';
import { dashboardSignUpState, type DashboardSignUpState } from './dashboard-signup/index.ts';
import type { AiOptions } from './ai-chat/index.ts';
import { API_PREFIX } from './operations/api-path.ts';

export { KnownError, StatusError, RateLimitError, type StatusKind, errorCatalogue, type KnownErrorCode } from './errors/index.ts';
export type { StorageAdapter, Dialect } from './storage/adapter.ts';
export { migrateToLatest } from './storage/adapter.ts';
export { migrations } from './storage/migrations/index.ts';
export type { OperationRequest } from './operations/execute.ts';
export type { Credentials } from './auth/credentials.ts';
export { NO_CREDENTIALS } from './auth/credentials.ts';
export type { AnyOperation, AccessType } from './operations/define.ts';
export type { Logger } from './runtime.ts';
export type { CoreHooks } from './hooks.ts';
// Also loads core/wiring.ts's declarations into a consumer's program: they complete `Runtime`
// (the domains' services) and a request's project and user types.
export type { WiredRuntimeOptions } from './wiring.ts';
export type { SeedKeys } from './projects/seed-internal.ts';
export { operations } from './operations/registry.ts';
export { INTERNAL_PROJECT_ID } from './auth/request-auth.ts';
export { configurePasswordHashing, passwordHashingStats } from './auth-password/index.ts';
export { cpuBudget, AdmissionQueue, type AdmissionOptions, type AdmissionStats } from './lib/admission.ts';
export { configureRenderPool, type RenderPoolOptions, type RenderWorkerSource } from './emails/render-pool.ts';
export { configureCelPool } from './sign-up-rules/index.ts';
export { serverCapabilities, type ServerCapabilities } from './operations/capabilities.ts';
export { IMAGE_PATH_PREFIX } from './images/index.ts';
export {
  firebaseAccountToRecord,
  IMPORT_LINES_MAX,
  parseFirebaseHashConfig,
  type FirebaseHashConfig,
  deriveExportKey,
  openExportSecrets,
  EXPORT_PASSPHRASE_MIN_LENGTH,
  EXPORT_FORMAT,
  type ExportHeader,
} from './user-import/index.ts';
export type { Project } from './projects/index.ts';
export { toClientProject } from './projects/index.ts';
export { answerScim, SCIM_ENDPOINTS, SCIM_MEDIA_TYPE, SCIM_SCHEMA } from './scim/index.ts';
export {
  oidcIssuer,
  identityProviderProject,
  oidcSigningKeys,
  oidcSigningKeyIds,
  findOauthClient,
  accountClaims,
  signedInUser,
  grantAccountClaims,
  SESSION_LINK_MODEL,
  oidcModelStore,
  withTokenWrites,
  skipsConsent,
  STANDARD_SCOPES,
  recordGrantCreated,
} from './oauth-provider/index.ts';
export { takeRateLimit, takeIntervalToken } from './throttle/index.ts';
export type { DashboardSignUpState } from './dashboard-signup/index.ts';
export type { AiOptions, AiDoc } from './ai-chat/index.ts';
export type { ProjectKeyValues } from './internal-api-keys/generate.ts';

export interface CoreOptions {
  storage: StorageAdapter;
  /** Public base URL (no `/api/v1`), for token `iss` and links. */
  baseUrl: string;
  /** Server secret; default: generated once and kept in the database. */
  secret?: string;
  clock?: Clock;
  /** Access-token lifetime in ms (default 10 minutes). */
  accessTokenTtlMs?: number;
  strictErrors?: boolean;
  environment?: 'development' | 'production' | 'test';
  logger?: Logger;
  seedKeys?: SeedKeys;
  /** See RuntimeOptions.requestCacheTtlMs (default 1000 ms). */
  requestCacheTtlMs?: number;
  /** Server-wide SMTP URL (GATEHOUSE_SMTP_URL); none keeps emails in the built-in outbox. */
  smtpUrl?: string | null;
  /** Email delivery worker polling interval in ms (default 1000). */
  emailPollIntervalMs?: number;
  /** Webhook delivery worker polling interval in ms (default 1000). */
  webhookPollIntervalMs?: number;
  /** Tests only: OAuth provider endpoints pointed at loopback servers (refused in production). */
  oauthEndpointOverrides?: import('./runtime.ts').OAuthEndpointOverrides;
  /** Tests only: the Stripe API pointed at a loopback server (refused in production). */
  stripeApiOverride?: import('./runtime.ts').StripeApiOverride | null;
  /** See RuntimeOptions.dashboardSignUpOpen (default: closed after the first owner). */
  dashboardSignUpOpen?: () => boolean;
  /** Listeners to run after Gatehouse's own on cross-domain events (core/hooks.ts). */
  hooks?: Partial<CoreHooks>;
  /** See WiredRuntimeOptions.revocationPollMs (core/wiring.ts; default 2000 ms). */
  revocationPollMs?: number;
  /**
   * The dashboard assistant: the OpenAI-compatible model endpoint the host read from
   * its settings (GATEHOUSE_AI_*), limits, and Gatehouse's docs as context. Default: off.
   */
  ai?: AiOptions;
  /** See RuntimeOptions.turnstile (default: Cloudflare's siteverify, 3000 ms). */
  turnstile?: import('./runtime.ts').RuntimeOptions['turnstile'];
  /** See RuntimeOptions.outboundPrivateHosts (GATEHOUSE_OUTBOUND_PRIVATE_HOSTS; default none). */
  outboundPrivateHosts?: readonly string[];
  /** See RuntimeOptions.dnsServers (GATEHOUSE_DNS_SERVERS; default: the system's resolvers). */
  dnsServers?: readonly string[];
  /** See RuntimeOptions.geoipDatabase (GATEHOUSE_GEOIP_DATABASE; default none). */
  geoipDatabase?: string | null;
  /** Tests only: cheap password hashes (see WiredRuntimeOptions.testPasswordHashing); refused in production. */
  testPasswordHashing?: boolean;
  /** See RuntimeOptions.operatorSecrets (GATEHOUSE_CRON_SECRET, GATEHOUSE_EMAIL_MONITOR_SECRET). */
  operatorSecrets?: import('./runtime.ts').RuntimeOptions['operatorSecrets'];
}

/** The unvalidated input of {@link Core.invoke}. */
export interface InvokeInput {
  /** Path parameters by name, e.g. `{ user_id: 'me' }`. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** The request body as parsed JSON (absent when there is none). */
  body?: unknown;
  /** The caller's network address for per-address throttling, or none. */
  clientAddress?: string | null;
  /** The caller's `User-Agent` (kept on sessions it creates), or none. */
  userAgent?: string | null;
  /** The caller's preferred language, a BCP 47 tag (kept on users it signs up), or none. */
  locale?: string | null;
}

/** A ready Gatehouse core: migrated storage, seeded internal project, every operation. */
export interface Core {
  readonly runtime: Runtime;
  readonly operations: readonly AnyOperation[];
  /** Internal-project keys generated on this start (print once), or null. */
  readonly generatedKeys: ProjectKeyValues | null;
  /**
   * Runs one operation in-process by id, transport-free: the caller's credentials are resolved
   * and checked as for any request, the input validated against the operation's schemas (all
   * problems in one SCHEMA_ERROR), then the operation runs.
   *
   * @param input unvalidated `params` (path parameters), `query` and `body`; `clientAddress` for
   *   per-address throttling (default none).
   * @returns the operation's value as it goes on the wire before serialization (`undefined` for
   *   operations that answer `{success: true}`; a raw reply for the few non-JSON answers).
   * @throws KnownError for every refusal, as the HTTP host would answer it; any other error is a bug.
   */
  invoke<T = unknown>(operationId: string, credentials: Credentials, input?: InvokeInput): Promise<T>;
  /** The project with `projectId` (config parsed), or null: what the host's hosted pages render. */
  findProject(projectId: string): Promise<Project | null>;
  /** A stored image (content type, bytes) served at `IMAGE_PATH_PREFIX` + `imageId`, or null. */
  loadImage(imageId: string): Promise<{ contentType: string; bytes: Buffer } | null>;
  /** Whether the dashboard is on its first run and its sign-up open (what its page shows). */
  dashboardSignUpState(): Promise<DashboardSignUpState>;
  close(): Promise<void>;
}

/**
 * Runs first-start seeding, again after a failed attempt (up to 3 more times): on SQLite a
 * process that raced another one for the first write fails with SQLITE_BUSY or a duplicate key,
 * and its next attempt finds the other's rows.
 */
async function seedWithRetry<T>(seed: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await seed();
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    }
  }
}

/**
 * Opens the core over a storage adapter: migrates to the latest schema, loads the server
 * secret, and seeds the internal project.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  await migrateToLatest(options.storage);
  const secret = await loadServerSecret(options.storage.db, options.secret);
  const runtime = createWiredRuntime({ ...options, secret });
  const { generatedKeys } = await seedWithRetry(() => ensureInternalProject(runtime, options.seedKeys));
  startEmailWorker(runtime);
  startWebhookWorker(runtime);
  startMetadataRefresh(runtime);
  startStripeOutboxWorker(runtime);
  const byId = new Map(operations.map((op) => [op.id, op]));
  return {
    runtime,
    operations,
    generatedKeys,
    async invoke<T>(operationId: string, credentials: Credentials, input: InvokeInput = {}): Promise<T> {
      const op = byId.get(operationId);
      if (!op) throw new Error(`Unknown operation ${operationId}`);
      const params = input.params ?? {};
      return (await invokeOperation(runtime, op, {
        method: op.method,
        pathname: `${API_PREFIX}${op.path.replace(/:(\w+)/g, (whole, name: string) => params[name] ?? whole)}`,
        credentials,
        params,
        query: input.query ?? {},
        body: input.body,
        clientAddress: input.clientAddress ?? null,
        userAgent: input.userAgent ?? null,
        locale: input.locale ?? null,
      })) as T;
    },
    findProject: (projectId) => findProject(runtime.db, projectId),
    loadImage: (imageId) => loadImage(runtime.db, imageId),
    dashboardSignUpState: () => dashboardSignUpState(runtime),
    close: async () => {
      await stopEmailWorker(runtime);
      await stopWebhookWorker(runtime);
      await stopMetadataRefresh(runtime);
      await stopStripeOutboxWorker(runtime);
      await runtime.sessionActivity.drain();
      await options.storage.close();
    },
  };
}
