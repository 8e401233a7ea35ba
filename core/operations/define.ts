import type * as v from 'valibot';
import type { Kysely } from 'kysely';
import type { KnownErrorCode } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import type { Runtime } from '../runtime.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import type { AccessType } from '../auth/access-type.ts';

/** The three access levels (upstream apps/backend/src/lib/permissions.tsx), defined beside request authentication. */
export { ACCESS_TYPES, type AccessType } from '../auth/access-type.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Schemas of the three request parts; an absent part must be empty. */
export interface InputSchemas {
  params?: v.GenericSchema;
  query?: v.GenericSchema;
  body?: v.GenericSchema;
}

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : Record<string, never>;

/** The validated input handed to `run`. */
export interface OperationInput<I extends InputSchemas> {
  params: Out<I['params']>;
  query: Out<I['query']>;
  body: Out<I['body']>;
}

/**
 * What an operation sees: storage (the current transaction, or the database), the injected clock,
 * the resolved caller, and hooks. No request, headers or cookies (STYLE.md "Transport stays out
 * of core").
 */
export interface OperationContext<A extends RequestAuth | null = RequestAuth | null> {
  readonly runtime: Runtime;
  /** The current transaction inside `transaction()`, else the database. */
  readonly db: Kysely<Database>;
  /** Request time, epoch ms, read once from the injected clock. */
  readonly now: number;
  readonly auth: A;
  /** The caller's refresh token (`Credentials.refreshToken`), read only by the few operations that need it. */
  readonly refreshToken: string | null;
  /**
   * The client's address for per-address throttling, normalized (IPv4, or an IPv6 /64 prefix),
   * as handed in by the host; null in-process or when unknown.
   */
  readonly clientAddress: string | null;
  /** Runs `fn` in one database transaction; `afterCommit` hooks queued inside run after commit. */
  transaction<T>(fn: (ctx: OperationContext<A>) => Promise<T>): Promise<T>;
  /** Queues work (network I/O, notifications) to run once the surrounding transaction commits. */
  afterCommit(fn: () => void | Promise<void>): void;
}

/** A non-JSON reply: plain text, a redirect, JSON with custom headers, or a stream. */
export interface RawReply {
  readonly raw: true;
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
  /** A streamed body instead of `body` (see {@link ReplyStream}). */
  stream?: ReplyStream;
}

/**
 * A body written as it is produced (server-sent events): the host calls it once with a signal
 * that aborts when the client goes away, and writes each chunk as it comes.
 */
export type ReplyStream = (signal: AbortSignal) => AsyncIterable<string>;

export const reply = {
  text: (body: string, status = 200): RawReply => ({ raw: true, status, contentType: 'text/plain; charset=utf-8', body }),
  json: (value: unknown, status = 200, headers?: Record<string, string>): RawReply => ({ raw: true, status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(value), ...(headers ? { headers } : {}) }),
  stream: (contentType: string, stream: ReplyStream, status = 200): RawReply => ({ raw: true, status, contentType, body: '', stream }),
  redirect: (location: string, status = 307): RawReply => ({ raw: true, status, contentType: 'text/plain; charset=utf-8', body: '', headers: { location } }),
};

export function isRawReply(value: unknown): value is RawReply {
  return typeof value === 'object' && value !== null && (value as RawReply).raw === true;
}

type AuthFor<L> = L extends 'public' ? RequestAuth | null : RequestAuth;

/**
 * One endpoint of the wire protocol, defined once. The Koa routes, the in-process API and the
 * route tests are generated from the registry of these objects (ARCHITECTURE.md "Operations").
 */
export interface Operation<I extends InputSchemas = InputSchemas, L extends readonly AccessType[] | 'public' = readonly AccessType[] | 'public'> {
  /** `domain.verb`, e.g. `users.getMe`. */
  readonly id: string;
  readonly method: HttpMethod;
  /** Path under `/api/v1`, Koa style: `/users/:user_id`. */
  readonly path: string;
  /** One sentence for docs and OpenAPI. */
  readonly summary: string;
  /** Access types that may call it, or `public` when no project auth is needed. */
  readonly access: L;
  /** Input schemas for server and admin (and client unless `clientInput` is given). */
  readonly input: I;
  /** Narrower schemas for client callers (e.g. the fields a client may update). */
  readonly clientInput?: InputSchemas;
  /** Known errors it may raise besides those of request authentication and validation. */
  readonly errors: readonly KnownErrorCode[];
  /**
   * The success answer's body as it goes on the wire: a valibot schema (core/operations/output.ts
   * has the list envelopes, `SuccessOutput` for operations that return nothing, and the markers
   * for text and redirects). The OpenAPI document and the SDK's typed routes are generated from
   * it; in strict test mode every answer is checked against it.
   */
  readonly output?: v.GenericSchema;
  /** HTTP status of success (default 200). */
  readonly status?: number;
  /**
   * The query schema is a loose object: parameters it does not name are ignored instead of
   * refused. Only for redirects from parties Gatehouse does not control (an OAuth provider's
   * callback, where RFC 6749 §4.1.2 says unrecognized response parameters must be ignored).
   */
  readonly ignoresUnknownQuery?: true;
  /**
   * Needs a signed-in user: without one the request fails validation with SCHEMA_ERROR
   * "auth.user must be defined", listed with any body problems, as upstream's request schemas
   * declare `auth.user` defined (e.g. `auth/password/set`, `auth/password/update`).
   */
  readonly requiresUser?: boolean;
  /**
   * The body is not read: any (well-formed) body is accepted and ignored, as upstream's handlers
   * without a body schema do (e.g. `DELETE /teams/{id}`).
   */
  readonly ignoresBody?: boolean;
  /**
   * The body is handed over unparsed, as `{ payload: <the body text>, signature: <the named
   * header, or undefined> }`, for routes that verify a signature over the exact bytes sent (the
   * Stripe webhook: `stripe.webhooks.constructEvent` needs the raw payload). The host builds that
   * object; `input.body` validates it.
   */
  readonly rawBody?: { readonly signatureHeader: string };
  run(ctx: OperationContext<AuthFor<L>>, input: OperationInput<I>): Promise<unknown>;
}

/** Identity helper that infers an operation's input types from its schemas. */
export function defineOperation<I extends InputSchemas, const L extends readonly AccessType[] | 'public'>(op: Operation<I, L>): Operation<I, L> {
  return op;
}

/** Erased operation type for registries. */
export type AnyOperation = Operation<any, any>;
