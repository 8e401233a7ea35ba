import type { OperationContext } from '../operations/define.ts';
import { deleteRefreshTokens, insertRevokedSessions, listOtherSessionIds } from './queries.ts';

/**
 * Revokes sessions: deletes their refresh tokens (no more refreshes) and records them in the
 * shared revocation set, so their access tokens stop working on Gatehouse's own endpoints too
 * (at once in this process, within seconds in the others; see `revocations.ts`). Joins the
 * caller's transaction (`ctx.db`); this process learns of them after the commit.
 */
async function revoke(ctx: OperationContext, projectId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteRefreshTokens(ctx.db, projectId, ids);
  await insertRevokedSessions(ctx.db, projectId, ids, Date.now());
  ctx.afterCommit(() => ctx.runtime.revocations.remember(ids));
}

/** Revokes one session (sign-out, `DELETE /auth/sessions/{id}`). */
export async function revokeSession(ctx: OperationContext, projectId: string, sessionId: string): Promise<void> {
  await revoke(ctx, projectId, [sessionId]);
}

/**
 * Revokes every session of `userId` except `keepSessionId` (null revokes all). Used after a
 * password reset (all sessions), a password change (all but the caller's) and when the owner of
 * a never-verified address proves it (ASVS 5.0 V7.4.3).
 *
 * @returns the ids of the revoked sessions.
 */
export async function revokeUserSessions(
  ctx: OperationContext,
  projectId: string,
  userId: string,
  keepSessionId: string | null,
): Promise<string[]> {
  const ids = await listOtherSessionIds(ctx.db, projectId, userId, keepSessionId);
  await revoke(ctx, projectId, ids);
  return ids;
}
