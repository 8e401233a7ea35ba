import type * as v from 'valibot';
import type { Kysely } from 'kysely';
import type { KnownErrorCode } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import type { Runtime } from '../runtime.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import type { AccessType } from '../auth/access-type.ts';

/** The three access levels (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/permissions.tsx), defined beside request authentication. */
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
  /**
   * An `ndjsonBody` operation called with an `application/x-ndjson` body: its lines (without the
   * line break) as they arrive, `body` then being undefined. The iteration throws KnownError
   * BODY_PARSING_ERROR for a line longer than the body size limit or a body that cannot be read.
   */
  ndjson?: AsyncIterable<string>;
}

/**
 * What an operation sees: storage (the current transaction, or the database), the injected clock,
 * the resolved caller, and hooks. No request, headers or cookies (transport stays out
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
  /**
   * The caller's `User-Agent` (at most 512 characters) and preferred language (a BCP 47 tag: the
   * hosted pages' `x-gatehouse-locale`, else the first `Accept-Language` entry), as handed in by
   * the host; null in-process or when absent. Sessions keep the first, new users the second.
   */
  readonly clientUserAgent: string | null;
  readonly clientLocale: string | null;
  /**
   * The request's `Authorization` header as sent, or null: read only by the operations an
   * operator secret guards (upstream's cron routes), never for request authentication.
   */
  readonly authorization: string | null;
  /** Runs `fn` in one database transaction; `afterCommit` hooks queued inside run after commit. */
  transaction<T>(fn: (ctx: OperationContext<A>) => Promise<T>): Promise<T>;
  /** Queues work (network I/O, notifications) to run once the surrounding transaction commits. */
  afterCommit(fn: () => void | Promise<void>): void;
}

/**
 * A success answer that is more than a JSON value, as transport-free data: plain text, an HTML
 * page, JSON with hints (created, cacheable), a redirect, or a stream of server-sent events. The
 * host renders it to a status, headers and a body (server-bin/api/render.ts); operations
 * build it with {@link reply}.
 */
export type RawReply = TextReply | HtmlReply | JsonReply | RedirectReply | EventStreamReply | NdjsonReply;

/** Plain text (UTF-8), e.g. the API root's greeting; `contentType` for another text format (SAML metadata XML). */
export interface TextReply {
  readonly raw: true;
  readonly kind: 'text';
  readonly body: string;
  readonly contentType?: string;
}

/**
 * A whole HTML page (UTF-8). `policy` is the page's content security policy when it needs one
 * of its own; a page with a policy is also never framed and never cached.
 */
export interface HtmlReply {
  readonly raw: true;
  readonly kind: 'html';
  readonly body: string;
  readonly policy?: string;
}

/**
 * A JSON value with hints: `created` when the call created a resource (upstream answers 201),
 * `cacheFor` when clients may cache the answer, in seconds (e.g. a JWKS: 3600).
 */
export interface JsonReply {
  readonly raw: true;
  readonly kind: 'json';
  readonly value: unknown;
  readonly created?: boolean;
  readonly cacheFor?: number;
}

/**
 * A redirect to `url` (absolute, or a path on this server). The browser repeats the same request
 * there, unless `seeOther`: then it follows with a GET (the answer to a form post).
 */
export interface RedirectReply {
  readonly raw: true;
  readonly kind: 'redirect';
  readonly url: string;
  readonly seeOther?: boolean;
}

/** Server-sent events: each chunk of `stream` is written as it is produced (see {@link ReplyStream}). */
export interface EventStreamReply {
  readonly raw: true;
  readonly kind: 'events';
  readonly stream: ReplyStream;
}

/**
 * Newline-delimited JSON (`application/x-ndjson`): one JSON value per line, each chunk of
 * `stream` written as it is produced (e.g. a user export of any size with flat memory).
 */
export interface NdjsonReply {
  readonly raw: true;
  readonly kind: 'ndjson';
  readonly stream: ReplyStream;
}

/**
 * A body written as it is produced (server-sent events, NDJSON): the host calls it once with a signal
 * that aborts when the client goes away, and writes each chunk as it comes.
 */
export type ReplyStream = (signal: AbortSignal) => AsyncIterable<string>;

/** Builders of the {@link RawReply} kinds. */
export const reply = {
  text: (body: string, options: { contentType?: string } = {}): TextReply => ({ raw: true, kind: 'text', body, ...options }),
  html: (body: string, options: { policy?: string } = {}): HtmlReply => ({ raw: true, kind: 'html', body, ...options }),
  json: (value: unknown, options: { created?: boolean; cacheFor?: number } = {}): JsonReply => ({
    raw: true,
    kind: 'json',
    value,
    ...options,
  }),
  redirect: (url: string, options: { seeOther?: boolean } = {}): RedirectReply => ({ raw: true, kind: 'redirect', url, ...options }),
  events: (stream: ReplyStream): EventStreamReply => ({ raw: true, kind: 'events', stream }),
  ndjson: (stream: ReplyStream): NdjsonReply => ({ raw: true, kind: 'ndjson', stream }),
};

/** Whether an operation's result is a {@link RawReply} rather than a plain JSON value. */
export function isRawReply(value: unknown): value is RawReply {
  return typeof value === 'object' && value !== null && (value as RawReply).raw === true;
}

type AuthFor<L> = L extends 'public' ? RequestAuth | null : RequestAuth;

/**
 * One endpoint of the wire protocol, defined once. The Koa routes, the in-process API and the
 * route tests are generated from the registry of these objects (docs/architecture.md "Layers").
 */
export interface Operation<
  I extends InputSchemas = InputSchemas,
  L extends readonly AccessType[] | 'public' = readonly AccessType[] | 'public',
> {
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
  /** The call creates a resource (upstream answers it with 201 Created; default: a plain success). */
  readonly created?: boolean;
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
   * The body is handed over unparsed, as `{ payload: <the body text>, signature: <the sender's
   * signature, or undefined> }`, for routes that verify a signature over the exact bytes sent
   * (the Stripe webhook: `stripe.webhooks.constructEvent` needs the raw payload). `signedBy`
   * names the sender; the host knows where that sender puts its signature
   * (server-bin/api/body.ts) and builds the object; `input.body` validates it.
   */
  readonly rawBody?: { readonly signedBy: 'stripe' };
  /**
   * Also accepts the body as `application/octet-stream` holding gzip-compressed JSON, without a
   * `Content-Encoding` header: how `@stackframe/js` 2.8.108 uploads its analytics batch
   * (stack-shared interface/client-interface.js `encodeAnalyticsBody`). The host inflates it
   * (within the body size limit) and parses it as JSON.
   */
  readonly gzippedJsonBody?: boolean;
  /**
   * Also takes an `application/x-ndjson` body, streamed: the host does not read it into memory
   * (nor apply the whole-body size limit) but hands the operation its lines as they arrive
   * (`input.ndjson`), and `input.body` is not validated. For bulk uploads of any size that the
   * operation answers as it goes (a `reply.ndjson` stream). Other content types are read as usual.
   */
  readonly ndjsonBody?: true;
  run(ctx: OperationContext<AuthFor<L>>, input: OperationInput<I>): Promise<unknown>;
}

/** Identity helper that infers an operation's input types from its schemas. */
export function defineOperation<I extends InputSchemas, const L extends readonly AccessType[] | 'public'>(
  op: Operation<I, L>,
): Operation<I, L> {
  return op;
}

/** Erased operation type for registries. */
export type AnyOperation = Operation<any, any>;
