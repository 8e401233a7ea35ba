import type { StatusKind } from '../../core/index.ts';

/**
 * The HTTP status of each kind of plain status error core raises (core/errors StatusError):
 * upstream's `StatusError` statuses (https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx).
 */
export const STATUS_OF_KIND: Readonly<Record<StatusKind, number>> = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-many-requests': 429,
};
