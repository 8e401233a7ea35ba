import { errorCatalogue, type KnownErrorCode } from './catalogue.ts';

export { errorCatalogue, type KnownErrorCode } from './catalogue.ts';

/**
 * A known error: a catalogue code plus its details. The HTTP status always comes from the
 * catalogue, never from the throw site (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx).
 *
 * On the wire the host renders it as `{code, details, error}` with the known-error header
 * (server-bin/api/render.ts).
 */
export class KnownError extends Error {
  readonly code: KnownErrorCode;
  readonly details: Record<string, unknown>;

  /**
   * `messageContext` feeds the human-readable message only and never reaches the wire's `details`
   * (used where upstream's error has no details but a developer needs the value, e.g. the URL of
   * REDIRECT_URL_NOT_WHITELISTED).
   */
  constructor(code: KnownErrorCode, details: Record<string, unknown> = {}, messageContext: Record<string, unknown> = {}) {
    super(errorCatalogue[code].message({ ...messageContext, ...details }));
    this.name = 'KnownError';
    this.code = code;
    this.details = details;
  }

  /** The HTTP status of this error's code. */
  get status(): number {
    return errorCatalogue[this.code].status;
  }
}

/**
 * The kind of refusal a {@link StatusError} is. Core names the kind; the host maps it to an HTTP
 * status (server-bin/api/status.ts: bad-request 400, unauthorized 401, forbidden 403,
 * not-found 404, conflict 409, too-many-requests 429).
 */
export type StatusKind = 'bad-request' | 'unauthorized' | 'forbidden' | 'not-found' | 'conflict' | 'too-many-requests';

/**
 * A plain status error: a kind of refusal and a text message, answered as plain text with no
 * known-error code, where the upstream protocol answers with text (upstream
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx, "Plain status errors"), e.g. forbidden
 * "OTP sign-in is not enabled for this project". The message is the whole body, byte for byte.
 */
export class StatusError extends Error {
  readonly kind: StatusKind;

  constructor(kind: StatusKind, message: string) {
    super(message);
    this.name = 'StatusError';
    this.kind = kind;
  }
}

/**
 * Too many requests in upstream's shape (upstream `proxy.tsx`): a JSON body `{"message": …}`
 * with no known-error code, and the seconds to wait when waiting helps (the host sends them as
 * `Retry-After`). The official SDK waits and retries (up to its five attempts); a known-error
 * code would instead make it throw an unknown-code error. Raised by core/throttle.
 */
export class RateLimitError extends StatusError {
  /** Whole seconds to wait, or null when waiting alone will not help (e.g. a locked account). */
  readonly retryAfterSeconds: number | null;

  constructor(message: string, retryAfterSeconds: number | null) {
    super('too-many-requests', message);
    this.name = 'RateLimitError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * REDIRECT_URL_NOT_WHITELISTED (400) naming the refused URL in its message. Upstream's error has
 * no details (stack-shared `known-errors.tsx` RedirectUrlNotWhitelisted), so the URL stays out of
 * `details` and the body keeps upstream's keys `{code, error}`.
 */
export function redirectUrlNotWhitelisted(url: string | null | undefined): KnownError {
  return new KnownError('REDIRECT_URL_NOT_WHITELISTED', {}, { url: url ?? undefined });
}
