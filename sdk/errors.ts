import { errorCatalogue, isKnownErrorCode, type KnownErrorCode } from '../core/errors/catalogue.ts';

export type { KnownErrorCode };

/** Codes of the INVALID_ACCESS_TOKEN family: the SDK marks its access token expired and retries. */
export const INVALID_ACCESS_TOKEN_CODES: readonly string[] = [
  'INVALID_ACCESS_TOKEN',
  'UNPARSABLE_ACCESS_TOKEN',
  'ACCESS_TOKEN_EXPIRED',
  'INVALID_PROJECT_FOR_ACCESS_TOKEN',
];
/** Codes of the REFRESH_TOKEN_ERROR family: the session is invalid and both tokens are cleared. */
export const REFRESH_TOKEN_ERROR_CODES: readonly string[] = [
  'REFRESH_TOKEN_ERROR',
  'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
  'PROVIDER_REJECTED',
];

/**
 * A known error answered by the server, rebuilt from the `x-stack-known-error` header and the
 * `{code, details, error}` body (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx). `status` is the catalogue's status for known
 * codes; a code this SDK does not know (a newer server) keeps its code, message and details and
 * reports `known === false`.
 */
export class GatehouseKnownError extends Error {
  override readonly name = 'GatehouseKnownError';
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown>;
  /** False when the code is not in this SDK's catalogue. */
  readonly known: boolean;

  constructor(code: string, details: Record<string, unknown> = {}, message?: string, status?: number) {
    const known = isKnownErrorCode(code);
    const entry = known ? errorCatalogue[code as KnownErrorCode] : undefined;
    super(message ?? entry?.message(details) ?? code);
    this.code = code;
    this.details = details;
    this.known = known;
    this.status = entry?.status ?? status ?? 500;
  }

  /** Type guard on the code: `if (e.is('USER_EMAIL_ALREADY_EXISTS'))`. */
  is(code: KnownErrorCode | (string & {})): boolean {
    return this.code === code;
  }
}

/** An HTTP error without a known-error header (plain-text 4xx, or a 5xx). */
export class GatehouseStatusError extends Error {
  override readonly name = 'GatehouseStatusError';
  readonly status: number;
  readonly body: string;
  readonly url: string;
  constructor(status: number, body: string, url: string) {
    super(`Request to ${url} failed with ${status}: ${body.slice(0, 500)}`);
    this.status = status;
    this.body = body;
    this.url = url;
  }
}

/** The network failed (after retries, for idempotent calls). Message per upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/known-errors.tsx. */
export class GatehouseNetworkError extends Error {
  override readonly name = 'GatehouseNetworkError';
  readonly url: string;
  override readonly cause: unknown;
  constructor(url: string, cause: unknown) {
    super(
      `Gatehouse could not connect to the server at ${url}. Check your internet connection, make sure the server is running, and contact support if the problem persists. (${cause instanceof Error ? cause.message : String(cause)})`,
    );
    this.url = url;
    this.cause = cause;
  }
}

/** A misuse of the SDK: bad configuration, untrusted redirect, `or: 'throw'` with no user… */
export class GatehouseConfigError extends Error {
  override readonly name = 'GatehouseConfigError';
}

/** `getUser({ or: 'throw' })` found no signed-in user (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/known-errors.tsx "Other"). */
export class UserNotSignedInError extends Error {
  override readonly name = 'UserNotSignedInError';
  constructor() {
    super('User is not signed in but getUser was called with { or: "throw" }.');
  }
}

/** True for a known error of one of `codes`. */
export function isKnownErrorOf(error: unknown, codes: readonly string[]): error is GatehouseKnownError {
  return error instanceof GatehouseKnownError && codes.includes(error.code);
}

/** The result shape of SDK calls that return expected errors instead of throwing (sign-in, codes). */
export type Result<T> = { status: 'ok'; data: T } | { status: 'error'; error: GatehouseKnownError };
