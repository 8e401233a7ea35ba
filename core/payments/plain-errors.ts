import { StatusError } from '../errors/index.ts';

/**
 * The plain-text status errors payments answers where upstream answers with a `StatusError`
 * (no known-error code), kept in one place so the host can take them over with the other plain
 * answers (the protocol stays at the edge).
 */
export const paymentsPlainError = {
  /** 403: a client acting for a customer that is not itself (upstream `ensureClientCanAccessCustomer`). */
  forbidden: (message: string) => new StatusError('forbidden', message),
  /** 400: a request upstream refuses with a plain message (e.g. "Cannot specify both product_id and product_inline!"). */
  badRequest: (message: string) => new StatusError('bad-request', message),
  /** 409: an idempotency key reused for a different change. */
  conflict: (message: string) => new StatusError('conflict', message),
  /** 404: a hosted-page code or resource that does not exist. */
  notFound: (message: string) => new StatusError('not-found', message),
};
