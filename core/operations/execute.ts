import * as v from 'valibot';
import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import { resolveRequestAuth, REQUEST_AUTH_ERRORS, type RequestAuth } from '../auth/request-auth.ts';
import type { Credentials } from '../auth/credentials.ts';
import type { Runtime } from '../runtime.ts';
import type { Database } from '../storage/tables.ts';
import { isRawReply, type AnyOperation, type InputSchemas, type OperationContext, type RawReply } from './define.ts';
import { schemaError, validatePart } from './validation.ts';
import { findInputProblems } from './input-shape.ts';
import { outputProblem, type WireAnswer } from './output.ts';
import { stringifyJson } from '../lib/json-text.ts';
import { normalizeClientAddress } from '../lib/client-address.ts';

/** A transport-free request for one operation. */
export interface OperationRequest {
  method: string;
  /** The request path as the caller sent it (used in SCHEMA_ERROR messages). */
  pathname: string;
  /** What the caller presented (the HTTP host reads it from the request headers). */
  credentials: Credentials;
  params: Record<string, string>;
  query: Record<string, string>;
  /** Parsed body, or undefined when there was none. */
  body: unknown;
  /** The lines of a streamed NDJSON body, for an `ndjsonBody` operation (the body is then undefined). */
  ndjson?: AsyncIterable<string>;
  /**
   * The client's network address as the host determined it (server-bin: the socket's peer, or
   * the trusted proxy's `X-Forwarded-For` entry), or null/absent in-process. Core never reads
   * addresses from headers itself.
   */
  clientAddress?: string | null;
  /** The request's `User-Agent`, or null/absent in-process. */
  userAgent?: string | null;
  /** The caller's preferred language as the host read it (a BCP 47 tag), or null/absent. */
  locale?: string | null;
}

/** What the host told core about the caller's software and language (OperationContext). */
interface ClientInfo {
  userAgent: string | null;
  locale: string | null;
  authorization: string | null;
}
const NO_CLIENT: ClientInfo = { userAgent: null, locale: null, authorization: null };
/** Longest `User-Agent` kept (real ones are under 300 characters). */
const USER_AGENT_MAX = 512;

/** The request's client info, bounded: an over-long agent is cut, a language tag must look like one. */
function clientInfo(request: OperationRequest): ClientInfo {
  const agent = request.userAgent?.trim() || null;
  const locale = request.locale?.trim() || null;
  return {
    userAgent: agent ? agent.slice(0, USER_AGENT_MAX) : null,
    locale: locale && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$/.test(locale) ? locale : null,
    authorization: request.credentials.authorization ?? null,
  };
}

const EMPTY = v.strictObject({});
const authErrorCodes = new Set<string>(REQUEST_AUTH_ERRORS);

function schemasFor(op: AnyOperation, auth: RequestAuth | null): InputSchemas {
  return auth?.accessType === 'client' && op.clientInput ? op.clientInput : op.input;
}

/**
 * Runs one operation for one call, transport-free: resolve the caller from its credentials,
 * check the access type, refuse text no database can store and over-deep nesting
 * (input-shape.ts), validate params, query and body (all problems in one SCHEMA_ERROR), run,
 * then the `afterCommit` hooks.
 *
 * @returns the operation's value (`undefined` for operations that answer `{success: true}`), or
 *   its raw reply for the few non-JSON answers.
 * @throws KnownError for every refusal (request authentication, validation, the operation's own
 *   declared errors); in strict mode an undeclared known error or an answer that does not match
 *   the declared output schema becomes a plain Error (a bug: a 500 on the wire).
 */
export async function invokeOperation(runtime: Runtime, op: AnyOperation, request: OperationRequest): Promise<unknown> {
  // Request-cache invalidation (core/auth/request-cache.ts), O(1) and only after writes to the
  // cached tables, which the runtime's database counts: a write made outside any operation is
  // forgotten before this one reads, and ours (or one we overlapped) once it has committed.
  const cache = runtime.requestCache;
  cache.clearIfWrittenSinceLastClear();
  const writesAtStart = cache.writes();
  try {
    return await runOperation(runtime, op, request);
  } catch (error) {
    if (runtime.strictErrors && error instanceof KnownError && !authErrorCodes.has(error.code) && !op.errors.includes(error.code)) {
      throw new Error(`Operation ${op.id} raised ${error.code}, which it does not declare in its errors`);
    }
    throw error;
  } finally {
    // Any method: a GET may write too. Its transactions have ended here, committed or not.
    if (cache.writes() !== writesAtStart) cache.clear();
  }
}

async function runOperation(runtime: Runtime, op: AnyOperation, request: OperationRequest): Promise<unknown> {
  const auth = await resolveRequestAuth(runtime, request.credentials);
  if (op.access !== 'public') {
    if (!auth) throw new KnownError('ACCESS_TYPE_REQUIRED');
    if (!op.access.includes(auth.accessType)) {
      throw new KnownError('INSUFFICIENT_ACCESS_TYPE', { actual_access_type: auth.accessType, allowed_access_types: [...op.access] });
    }
  }

  const schemas = schemasFor(op, auth);
  const body = request.method === 'GET' || op.ignoresBody ? undefined : request.body;
  const shapeProblems = [
    ...findInputProblems(request.params, 'params'),
    ...findInputProblems(request.query, 'query'),
    ...findInputProblems(body, 'body'),
  ];
  if (shapeProblems.length > 0) throw schemaError(request.method, request.pathname, shapeProblems);
  const ndjson = op.ndjsonBody ? request.ndjson : undefined;
  const parts = await Promise.all([
    validatePart(schemas.params ?? EMPTY, request.params, 'params'),
    validatePart(schemas.query ?? EMPTY, request.query, 'query'),
    ndjson
      ? { value: undefined, problems: [] }
      : validatePart(schemas.body ?? EMPTY, body === undefined || body === '' ? {} : body, 'body'),
  ]);
  const problems = [...(op.requiresUser && !auth?.user ? ['auth.user must be defined'] : []), ...parts.flatMap((p) => p.problems)];
  if (problems.length > 0) throw schemaError(request.method, request.pathname, problems);
  const input = { params: parts[0].value, query: parts[1].value, body: parts[2].value, ...(ndjson ? { ndjson } : {}) };

  const hooks: Array<() => void | Promise<void>> = [];
  const ctx = makeContext(
    runtime,
    runtime.db,
    auth,
    request.credentials.refreshToken || null,
    hooks,
    false,
    normalizeClientAddress(request.clientAddress ?? null),
    clientInfo(request),
  );
  const result = await op.run(ctx as never, input as never);
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      runtime.log.error({ err: String(error), operation: op.id }, 'afterCommit hook failed');
    }
  }
  if (runtime.strictErrors) {
    // A streamed reply (server-sent events) has no body to check until it has been written.
    if (isRawReply(result)) {
      if (result.kind !== 'events' && result.kind !== 'ndjson') checkDeclaredOutput(op, rawAnswer(result));
    } else checkDeclaredOutput(op, { kind: 'json', value: JSON.parse(stringifyJson(result ?? { success: true })) });
  }
  return result;
}

/** A raw reply as the output check sees it: JSON as its value, text and pages as their text, redirects as their target. */
function rawAnswer(reply: Exclude<RawReply, { kind: 'events' | 'ndjson' }>): WireAnswer {
  if (reply.kind === 'redirect') return { kind: 'redirect', value: reply.url };
  if (reply.kind === 'json') return { kind: 'json', value: JSON.parse(stringifyJson(reply.value)) };
  if (reply.kind === 'html') return { kind: 'html', value: reply.body };
  return { kind: 'text', value: reply.body };
}

/**
 * Strict test mode: an answer that does not match the operation's declared output schema is a
 * bug (the generated reference would lie), so it becomes a 500 naming the mismatch.
 */
function checkDeclaredOutput(op: AnyOperation, answer: WireAnswer): void {
  if (!op.output) return;
  const problem = outputProblem(op.id, op.output, answer);
  if (problem) throw new Error(problem);
}

/**
 * A context outside any request (seeding, background work, tests): `afterCommit` hooks run when
 * `flush()` is called.
 */
export function createSystemContext(runtime: Runtime, auth: RequestAuth | null = null): OperationContext & { flush(): Promise<void> } {
  const hooks: Array<() => void | Promise<void>> = [];
  const ctx = makeContext(runtime, runtime.db, auth, null, hooks, false);
  let writesSince = runtime.requestCache.writes();
  return Object.assign(ctx, {
    flush: async () => {
      // Like an operation's end: committed writes to cached tables (ours or overlapped) clear the request cache.
      if (runtime.requestCache.writes() !== writesSince) runtime.requestCache.clear();
      writesSince = runtime.requestCache.writes();
      for (const hook of hooks.splice(0)) await hook();
    },
  });
}

function makeContext(
  runtime: Runtime,
  db: Kysely<Database>,
  auth: RequestAuth | null,
  refreshToken: string | null,
  hooks: Array<() => void | Promise<void>>,
  inTransaction: boolean,
  clientAddress: string | null = null,
  client: ClientInfo = NO_CLIENT,
): OperationContext {
  const ctx: OperationContext = {
    runtime,
    db,
    now: runtime.clock.now(),
    auth,
    refreshToken,
    clientAddress,
    clientUserAgent: client.userAgent,
    clientLocale: client.locale,
    authorization: client.authorization,
    afterCommit: (fn) => {
      hooks.push(fn);
    },
    transaction: async (fn) => {
      if (inTransaction) return fn(ctx);
      return db.transaction().execute((trx) => fn(makeContext(runtime, trx, auth, refreshToken, hooks, true, clientAddress, client)));
    },
  };
  return ctx;
}
