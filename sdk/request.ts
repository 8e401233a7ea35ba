import type { SdkEnvironment } from './env.ts';
import {
  GatehouseKnownError,
  GatehouseNetworkError,
  GatehouseStatusError,
  INVALID_ACCESS_TOKEN_CODES,
  REFRESH_TOKEN_ERROR_CODES,
  isKnownErrorOf,
} from './errors.ts';
import type { Session } from './session.ts';
import { transportUrl, type Transport, type TransportResponse } from './transport.ts';
import { routeMethod, routePath, type OperationArgs, type OperationId, type OperationOutput } from './routes.ts';

/** Network retries (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): 5, exponential from 1000 ms, jitter 0.5–1.5. */
export const MAX_RETRIES = 5;
export const RETRY_BASE_MS = 1000;
/** Methods retried after a network failure (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts). */
export const IDEMPOTENT_METHODS: readonly string[] = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'];
/** The client version header's value (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx format `<sdk> @<package>@<version>`). */
export const CLIENT_VERSION = 'js @gatehouse/sdk@0.1.0';

/** The delay before retry number `attempt` (0-based): 1000 × 2^attempt × (0.5 + random). */
export function backoffDelayMs(attempt: number, random: () => number): number {
  return RETRY_BASE_MS * 2 ** attempt * (0.5 + random());
}

/** How a request layer identifies the project and caller. */
export interface ApiClientOptions {
  projectId: string;
  accessType: 'client' | 'server' | 'admin';
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  /** The project owner's access token (an internal-project session), for owned-project apps. */
  adminSession?: Session;
  transport: Transport;
  env: SdkEnvironment;
  extraRequestHeaders?: Record<string, string>;
}

/** Per-call options. */
export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** The user session whose tokens are sent; omitted means none. */
  session?: Session | null;
}

/**
 * The request layer shared by the three apps: builds the `x-stack-*` envelope, refreshes tokens,
 * retries, and turns answers into values or typed errors (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts "Client handling").
 */
export class ApiClient {
  readonly options: ApiClientOptions;

  constructor(options: ApiClientOptions) {
    this.options = options;
  }

  private randomNonce(): string {
    return Math.floor(this.options.env.random() * 2 ** 48).toString(36) + this.options.env.now().toString(36);
  }

  private async headers(session: Session | null | undefined, hasBody: boolean): Promise<Record<string, string>> {
    const o = this.options;
    const h: Record<string, string> = {
      'x-stack-project-id': o.projectId,
      'x-stack-access-type': o.accessType,
      'x-stack-client-version': CLIENT_VERSION,
      'x-stack-override-error-status': 'true',
      'x-stack-allow-anonymous-user': 'true',
      'x-stack-random-nonce': this.randomNonce(),
      ...o.extraRequestHeaders,
    };
    if (hasBody) h['content-type'] = 'application/json';
    if (o.publishableClientKey) h['x-stack-publishable-client-key'] = o.publishableClientKey;
    if (o.secretServerKey) h['x-stack-secret-server-key'] = o.secretServerKey;
    if (o.superSecretAdminKey) h['x-stack-super-secret-admin-key'] = o.superSecretAdminKey;
    if (o.adminSession) {
      const admin = await o.adminSession.getAccessToken();
      if (admin) h['x-stack-admin-access-token'] = admin;
    }
    if (session) {
      const access = await session.getAccessToken();
      const { refreshToken } = session.tokens();
      if (access) h['x-stack-access-token'] = access;
      if (refreshToken) h['x-stack-refresh-token'] = refreshToken;
    }
    return h;
  }

  /**
   * Sends one API call and returns the parsed JSON body (or text). Network failures on
   * idempotent methods retry up to 5 times with backoff; 429 waits `Retry-After` seconds (or not
   * at all) and retries; 508 INFINITE_LOOP_DETECTED retries with backoff; an INVALID_ACCESS_TOKEN
   * answer marks the access token expired and retries with a refreshed one. Throws
   * GatehouseKnownError, GatehouseStatusError or GatehouseNetworkError.
   */
  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const { env, transport } = this.options;
    const query = new URLSearchParams();
    for (const [k, val] of Object.entries(options.query ?? {})) if (val !== undefined && val !== null) query.set(k, String(val));
    const fullPath = query.size ? `${path}?${query}` : path;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let lastError: unknown;
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
      const headers = await this.headers(options.session, body !== undefined);
      let res: TransportResponse;
      try {
        res = await transport({ method, path: fullPath, headers, body });
      } catch (error) {
        lastError = new GatehouseNetworkError(transportUrl(transport, fullPath), error);
        if (!IDEMPOTENT_METHODS.includes(method) || attempt === MAX_RETRIES) throw lastError;
        await env.sleep(backoffDelayMs(attempt, env.random));
        continue;
      }
      const status = Number(res.headers.get('x-stack-actual-status') ?? res.headers.get('x-hexclave-actual-status') ?? res.status);
      if (status === 429) {
        lastError = new GatehouseStatusError(429, res.text, transportUrl(transport, fullPath));
        if (attempt === MAX_RETRIES) throw lastError;
        const retryAfter = Number(res.headers.get('retry-after'));
        await env.sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 0);
        continue;
      }
      const code = res.headers.get('x-stack-known-error') ?? res.headers.get('x-hexclave-known-error');
      if (code) {
        let parsed: { code?: string; details?: Record<string, unknown>; error?: string } = {};
        try {
          parsed = JSON.parse(res.text);
        } catch {
          /* keep the header's code */
        }
        if (parsed.code !== undefined && parsed.code !== code)
          throw new GatehouseStatusError(
            status,
            `Known-error header ${code} does not match body code ${parsed.code}`,
            transportUrl(transport, fullPath),
          );
        const error = new GatehouseKnownError(code, parsed.details ?? {}, parsed.error, status);
        if (status === 508 && code === 'INFINITE_LOOP_DETECTED' && attempt < MAX_RETRIES) {
          lastError = error;
          await env.sleep(backoffDelayMs(attempt, env.random));
          continue;
        }
        if (isKnownErrorOf(error, INVALID_ACCESS_TOKEN_CODES) && options.session && attempt < MAX_RETRIES) {
          options.session.markAccessTokenExpired(headers['x-stack-access-token']);
          lastError = error;
          continue;
        }
        throw error;
      }
      if (status >= 400) throw new GatehouseStatusError(status, res.text, transportUrl(transport, fullPath));
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('json')) return JSON.parse(res.text) as T;
      return res.text as T;
    }
    throw lastError;
  }

  /**
   * Calls operation `id` (sdk/generated/routes.ts gives its method and path template) with typed
   * `params`, `query` and `body`, as `session` when given; the answer is the operation's typed
   * output. Same envelope, retries and errors as {@link call}.
   */
  op<K extends OperationId>(id: K, ...[input]: OperationArgs<K, { session?: Session | null }>): Promise<OperationOutput<K>> {
    const { params, query, body, session } = (input ?? {}) as {
      params?: Record<string, string>;
      query?: CallOptions['query'];
      body?: unknown;
      session?: Session | null;
    };
    return this.call(routeMethod(id), routePath(id, params), { query, body, session });
  }

  /** A form-encoded call of operation `id` without `x-stack-*` headers (the OAuth token endpoint); throws known errors. */
  async callForm<T>(id: OperationId, form: URLSearchParams): Promise<T> {
    const path = routePath(id);
    let res: TransportResponse;
    try {
      res = await this.options.transport({
        method: routeMethod(id),
        path,
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
        body: form.toString(),
      });
    } catch (error) {
      throw new GatehouseNetworkError(transportUrl(this.options.transport, path), error);
    }
    const code = res.headers.get('x-stack-known-error') ?? res.headers.get('x-hexclave-known-error');
    if (code) {
      let parsed: { details?: Record<string, unknown>; error?: string } = {};
      try {
        parsed = JSON.parse(res.text);
      } catch {
        /* ignore */
      }
      throw new GatehouseKnownError(code, parsed.details ?? {}, parsed.error, res.status);
    }
    if (res.status >= 400) throw new GatehouseStatusError(res.status, res.text, transportUrl(this.options.transport, path));
    return JSON.parse(res.text) as T;
  }

  /**
   * Refreshes an access token with the OAuth `refresh_token` grant (`POST /auth/oauth/token`,
   * form-encoded, no `x-stack-*` headers). Returns null on a refresh-token error.
   */
  async refreshAccessToken(refreshToken: string): Promise<string | null> {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: this.options.projectId,
      client_secret: this.options.publishableClientKey ?? '__stack_public_client__',
    });
    const path = routePath('authOauth.token');
    let res: TransportResponse;
    try {
      res = await this.options.transport({
        method: routeMethod('authOauth.token'),
        path,
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
        body: form.toString(),
      });
    } catch (error) {
      throw new GatehouseNetworkError(transportUrl(this.options.transport, path), error);
    }
    const code = res.headers.get('x-stack-known-error') ?? res.headers.get('x-hexclave-known-error');
    if (code && REFRESH_TOKEN_ERROR_CODES.includes(code)) return null;
    if (code) {
      let parsed: { details?: Record<string, unknown>; error?: string } = {};
      try {
        parsed = JSON.parse(res.text);
      } catch {
        /* ignore */
      }
      throw new GatehouseKnownError(code, parsed.details ?? {}, parsed.error, res.status);
    }
    if (res.status >= 400) throw new GatehouseStatusError(res.status, res.text, transportUrl(this.options.transport, path));
    const token = (JSON.parse(res.text) as { access_token?: unknown }).access_token;
    return typeof token === 'string' ? token : null;
  }
}
