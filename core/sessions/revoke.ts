import type { OperationContext } from '../operations/define.ts';
import { deleteRefreshTokens, listOtherSessionIds } from './queries.ts';

/**
 * Revokes one session: deletes its refresh token, so it can no longer be refreshed. Joins the
 * caller's transaction (`ctx.db`).
 */
export async function revokeSession(ctx: OperationContext, projectId: string, sessionId: string): Promise<void> {
  await deleteRefreshTokens(ctx.db, projectId, [sessionId]);
}

/**
 * Revokes every session of `userId` except `keepSessionId` (null revokes all). Used after a
 * password reset (all sessions), a password change (all but the caller's) and when the owner of
 * a never-verified address proves it (ASVS 5.0 V7.4.3, issue 12 findings 2 and 3).
 *
 * @returns the ids of the revoked sessions.
 */
export async function revokeUserSessions(ctx: OperationContext, projectId: string, userId: string, keepSessionId: string | null): Promise<string[]> {
  const ids = await listOtherSessionIds(ctx.db, projectId, userId, keepSessionId);
  await deleteRefreshTokens(ctx.db, projectId, ids);
  return ids;
}
