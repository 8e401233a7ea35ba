import { ClientApp } from '../../sdk/client-app.ts';
import { ApiClient } from '../../sdk/request.ts';
import type { OperationArgs, OperationId, OperationOutput } from '../../sdk/routes.ts';
import { httpTransport, type Transport } from '../../sdk/transport.ts';
import { defaultEnvironment, type SdkEnvironment } from '../../sdk/env.ts';
import { GatehouseKnownError, GatehouseNetworkError, GatehouseStatusError } from '../../sdk/errors.ts';
import { cookieTokenStore, hostedCookieOptions, type TokenStoreInit } from '../../sdk/tokens.ts';
import type { ServerCapabilities } from '../../core/operations/capabilities.ts';

/** What the server writes into the page (`window.__GATEHOUSE_DASHBOARD__`, server-bin/dashboard.ts). */
export interface DashboardBoot {
  /** No internal-project user exists yet: the first visitor signs up as the owner. */
  firstRun: boolean;
  /** Client sign-up to the internal project is accepted (first run or GATEHOUSE_DASHBOARD_SIGNUP=open). */
  signUpOpen: boolean;
  /** Sign-up stays open after the first owner (the server's GATEHOUSE_DASHBOARD_SIGNUP=open). */
  signUpStaysOpen?: boolean;
  /** The path the server saw, to find a mount prefix. */
  serverPath: string;
  /** What the server can do; switches for anything else are not offered. */
  capabilities?: ServerCapabilities;
}

/**
 * A call through the SDK's request layer by operation id: `(id, {params, query, body})` → the
 * operation's typed output (sdk/routes.ts).
 */
export type Caller = <K extends OperationId>(id: K, ...args: OperationArgs<K>) => Promise<OperationOutput<K>>;

/** Options for tests: a custom transport and an in-memory token store. */
export interface DashboardApiOptions {
  transport?: Transport;
  tokenStore?: TokenStoreInit;
  environment?: Partial<SdkEnvironment>;
}

/**
 * The dashboard's connection to the server (upstream apps/backend/prisma/seed.ts): the owner is a user of the
 * internal project (a ClientApp with its session), and every managed project is reached with
 * admin access and `x-stack-admin-access-token` = the owner's access token (refreshed by the
 * session as needed).
 */
export class DashboardApi {
  readonly app: ClientApp;
  /** The mount prefix ('' when the server is at the origin's root). */
  readonly prefix: string;
  private readonly transport: Transport;
  private readonly env: SdkEnvironment;
  private readonly internalClient: ApiClient;
  private readonly admins = new Map<string, ApiClient>();
  private readonly base: string;

  readonly boot: DashboardBoot;
  constructor(boot: DashboardBoot, where: { origin: string; pathname: string }, options: DashboardApiOptions = {}) {
    this.boot = boot;
    this.prefix = where.pathname.endsWith(boot.serverPath) ? where.pathname.slice(0, where.pathname.length - boot.serverPath.length) : '';
    this.env = { ...defaultEnvironment(), ...options.environment };
    const base = where.origin + this.prefix;
    this.base = base;
    // The owner's refresh token lives in an HttpOnly cookie (server-bin/api/cookie-bridge.ts).
    this.transport = options.transport ?? httpTransport(base, this.env.fetch, { cookieBridge: true });
    this.app = new ClientApp({
      projectId: 'internal',
      baseUrl: base,
      transport: this.transport,
      tokenStore: options.tokenStore ?? cookieTokenStore('internal', this.env, undefined, hostedCookieOptions('internal')),
      redirectMethod: 'none',
      environment: this.env,
      urls: { handler: `${this.prefix}/handler`, home: `${this.prefix}/` },
    });
    this.internalClient = new ApiClient({ projectId: 'internal', accessType: 'client', transport: this.transport, env: this.env });
  }

  /** Whether the owner has a session (a refresh token). */
  get signedIn(): boolean {
    return !!this.app.session?.tokens().refreshToken;
  }

  /** A call to the internal project as the signed-in owner (`/users/me`, `/internal/projects`…). */
  internal: Caller = ((id: OperationId, input?: object) =>
    this.internalClient.op(id, { ...input, session: this.app.session } as never)) as Caller;

  /**
   * A GET of a host route that is not an operation of the registry (the OpenAPI document,
   * `/openapi.json`), as the signed-in owner → parsed JSON.
   */
  hostJson<T>(path: string): Promise<T> {
    return this.internalClient.call<T>('GET', path, { session: this.app.session });
  }

  /** A caller with admin access to `projectId`, authenticated by the owner's access token. */
  admin(projectId: string): Caller {
    let client = this.admins.get(projectId);
    if (!client) {
      client = new ApiClient({
        projectId,
        accessType: 'admin',
        transport: this.transport,
        env: this.env,
        ...(this.app.session ? { adminSession: this.app.session } : {}),
      });
      this.admins.set(projectId, client);
    }
    const c = client;
    return ((id: OperationId, input?: object) => c.op(id, input as never)) as Caller;
  }

  /**
   * A POST with admin access to `projectId` whose answer is read as it arrives (the assistant's
   * server-sent events, `?stream=true`): the raw `Response`, so the caller reads `body` piece by
   * piece; `signal` aborts it (Stop). Errors come back as the response's status and known-error
   * body, not as exceptions.
   */
  async adminStream(projectId: string, path: string, body: unknown, signal: AbortSignal): Promise<Response> {
    const token = await this.app.session?.getAccessToken();
    return this.env.fetch(`${this.base}/api/v1${path}`, {
      method: 'POST',
      headers: {
        'x-stack-project-id': projectId,
        'x-stack-access-type': 'admin',
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(token ? { 'x-stack-admin-access-token': token } : {}),
      },
      body: JSON.stringify(body),
      signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  }

  /** Absolute URL of a server path (hosted pages, API) under the mount prefix. */
  url(path: string): string {
    return `${this.prefix}${path}`;
  }
}

/**
 * Readable text for a failed call: SCHEMA_ERROR lists the problems, other known errors give
 * their message and code, plain 4xx answers their text, network failures say so.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof GatehouseKnownError) {
    if (error.code === 'SCHEMA_ERROR' && typeof error.details.message === 'string') return readableValidation(error.details.message);
    return `${error.message} (${error.code})`;
  }
  if (error instanceof GatehouseStatusError) return error.body || `The server answered ${error.status}.`;
  if (error instanceof GatehouseNetworkError) return 'Could not reach the Gatehouse server. Is it running?';
  return error instanceof Error ? error.message : String(error);
}

/**
 * A SCHEMA_ERROR message for an owner: the server's `Request validation failed on PATCH /…:`
 * header and each line's field path (`  - body.config: …`) dropped, one sentence per problem.
 * Other messages are returned as they are.
 */
export function readableValidation(message: string): string {
  const [head, ...rest] = message.split('\n');
  if (!/^Request validation failed\b/.test(head ?? '')) return message;
  const sentences = rest
    .map((l) => l.replace(/^\s*-\s*([\w.[\]]+:\s*)?/, '').trim())
    .filter(Boolean)
    .map((s) => `${s[0]!.toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}`);
  return sentences.length ? sentences.join('\n') : 'The server refused the change.';
}

/** A page of a paginated list (`{items, pagination: {next_cursor}}`). */
export interface Page<T> {
  items: T[];
  is_paginated?: boolean;
  pagination?: { next_cursor: string | null };
}

/** Whether `error` says a feature is switched off for the project (400 text "… not enabled for this project."). */
export function isNotEnabled(error: unknown): boolean {
  return error instanceof GatehouseStatusError && error.status === 400 && /not enabled/i.test(error.body);
}
