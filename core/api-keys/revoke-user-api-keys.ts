import type { OperationContext } from '../operations/define.ts';
import { revokeApiKeysOfUser } from './queries.ts';

/**
 * Revokes every user API key of `userId` (as a manual revocation at `ctx.now`). Used when the
 * owner of a never-verified address takes the account back. Joins the
 * caller's transaction.
 */
export function revokeUserApiKeys(ctx: OperationContext, projectId: string, userId: string): Promise<void> {
  return revokeApiKeysOfUser(ctx.db, projectId, userId, ctx.now);
}
