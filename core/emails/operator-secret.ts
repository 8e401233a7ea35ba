import type { OperationContext } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { schemaError } from '../operations/validation.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/**
 * Checks the `Authorization: Bearer <secret>` of a route guarded by an operator secret (upstream's
 * cron and monitor routes): no header is upstream's SCHEMA_ERROR "headers.authorization must be
 * defined"; any other value, or no secret configured, is 401 "Unauthorized".
 *
 * @throws KnownError SCHEMA_ERROR; StatusError unauthorized.
 */
export function requireOperatorSecret(ctx: OperationContext, secret: string | null, method: string, path: string): void {
  if (ctx.authorization === null) throw schemaError(method, `${API_PREFIX}${path}`, ['headers.authorization must be defined']);
  if (secret === null || !timingSafeEqualText(ctx.authorization, `Bearer ${secret}`)) throw new StatusError('unauthorized', 'Unauthorized');
}

/** Compares two strings in time independent of where they differ. */
function timingSafeEqualText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
