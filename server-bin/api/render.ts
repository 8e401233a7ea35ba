import { KnownError, RateLimitError, StatusError } from '../../core/index.ts';
import type { AnyOperation } from '../../core/index.ts';
import type { Runtime } from '../../core/runtime.ts';
import { isRawReply, type RawReply, type ReplyStream } from '../../core/operations/define.ts';
import { stringifyJson } from '../../core/lib/json-text.ts';
import { STATUS_OF_KIND } from './status.ts';

/**
 * An operation's outcome as it goes on the wire: status, media type, body and the headers the
 * outcome itself implies (the transport adds request ids, CORS, caching defaults and the
 * known-error header: respond.ts).
 */
export interface OperationResponse {
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
  /** The known error's code when the body is one (sent as the known-error header). */
  knownError?: string;
  /** The unexpected error behind a 500, for logging. */
  cause?: unknown;
  /** A body streamed after the status and headers (server-sent events); `body` is then empty. */
  stream?: ReplyStream;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * A known error as upstream sends it: `{code, details, error}` with the catalogue's status
 * (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx); an error without details has no
 * `details` key at all, as upstream's `KnownError` body.
 */
export function knownErrorResponse(error: KnownError): OperationResponse {
  const hasDetails = Object.values(error.details).some((value) => value !== undefined);
  return {
    status: error.status,
    contentType: JSON_TYPE,
    body: JSON.stringify(
      hasDetails ? { code: error.code, details: error.details, error: error.message } : { code: error.code, error: error.message },
    ),
    headers: {},
    knownError: error.code,
  };
}

/**
 * Any thrown value as a response: a known error as itself; a database outage (the adapter's
 * `isUnavailable`) as DATABASE_UNAVAILABLE (503, the cause logged as a warning); too many
 * requests as 429 `{"message"}` with `Retry-After` in seconds when waiting helps (upstream
 * `proxy.tsx`); a plain status error as its kind's status ({@link STATUS_OF_KIND}) with the
 * message as the whole `text/plain` body; anything else as 500 (in production without details,
 * naming the request id), with the error kept as `cause` for the log.
 */
export function errorResponse(runtime: Runtime, error: unknown, requestId?: string): OperationResponse {
  if (error instanceof KnownError) return knownErrorResponse(error);
  if (runtime.storage.isUnavailable(error)) {
    // A database outage is not a bug: a retryable 503 with a known code, the cause only in the log.
    runtime.log.warn({ request_id: requestId, err: error instanceof Error ? error.message : String(error) }, 'database unavailable');
    return knownErrorResponse(new KnownError('DATABASE_UNAVAILABLE'));
  }
  if (error instanceof RateLimitError) {
    const headers: Record<string, string> = error.retryAfterSeconds === null ? {} : { 'retry-after': String(error.retryAfterSeconds) };
    return { status: STATUS_OF_KIND[error.kind], contentType: JSON_TYPE, body: JSON.stringify({ message: error.message }), headers };
  }
  if (error instanceof StatusError) return { status: STATUS_OF_KIND[error.kind], contentType: TEXT_TYPE, body: error.message, headers: {} };
  const body =
    runtime.environment === 'production'
      ? `Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: ${requestId ?? 'unknown'}`
      : `Internal Server Error. The error message follows, but will be stripped in production. ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  return { status: 500, contentType: TEXT_TYPE, body, headers: {}, cause: error };
}

/**
 * A success value as a response: a plain value as JSON (stringifyJson: rows of any depth stored
 * before the bounds existed still serialize; `undefined` as `{"success":true}`), 201 when the
 * operation declares `created`; a {@link RawReply} by its kind: text and HTML pages (a page with
 * its own policy is never framed or cached), JSON with its hints (`created` → 201, `cacheFor`
 * seconds → `public, max-age`), a redirect (307, or 303 `seeOther`, empty body), server-sent
 * events and NDJSON (streamed).
 */
export function successResponse(op: AnyOperation, result: unknown): OperationResponse {
  if (!isRawReply(result))
    return { status: op.created ? 201 : 200, contentType: JSON_TYPE, body: stringifyJson(result ?? { success: true }), headers: {} };
  return rawReplyResponse(result);
}

function rawReplyResponse(reply: RawReply): OperationResponse {
  switch (reply.kind) {
    case 'text':
      return { status: 200, contentType: reply.contentType ?? TEXT_TYPE, body: reply.body, headers: {} };
    case 'html':
      return {
        status: 200,
        contentType: HTML_TYPE,
        body: reply.body,
        headers:
          reply.policy === undefined
            ? {}
            : { 'cache-control': 'no-store', 'x-frame-options': 'DENY', 'content-security-policy': reply.policy },
      };
    case 'json':
      return {
        status: reply.created ? 201 : 200,
        contentType: JSON_TYPE,
        body: stringifyJson(reply.value),
        headers: reply.cacheFor === undefined ? {} : { 'cache-control': `public, max-age=${reply.cacheFor}` },
      };
    case 'redirect':
      return { status: reply.seeOther ? 303 : 307, contentType: TEXT_TYPE, body: '', headers: { location: reply.url } };
    case 'events':
      return { status: 200, contentType: 'text/event-stream; charset=utf-8', body: '', headers: {}, stream: reply.stream };
    case 'ndjson':
      return { status: 200, contentType: 'application/x-ndjson; charset=utf-8', body: '', headers: {}, stream: reply.stream };
  }
}
