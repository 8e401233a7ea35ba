import type { OperationContext } from '../operations/define.ts';
import { revokeUserSessions } from './revoke.ts';
import { revokeUserCodes } from '../verification-codes/index.ts';
import { clearSignInFailures } from '../throttle/index.ts';
import { findUser } from '../users/index.ts';

/** Verification-code purpose of password-reset links (core/auth-password). */
const PASSWORD_RESET_PURPOSE = 'password_reset';

/**
 * What every password change does besides storing the new hash (ASVS 5.0
 * V7.4.3): revokes the user's sessions except `keepSessionId` (the caller's own session on a
 * change; none after a reset) and invalidates every outstanding password-reset code, so neither a
 * stolen session nor an older reset link survives the change; and clears the failed-sign-in count
 * of the user's email (lifting a lockout). Joins the caller's transaction.
 *
 * @returns the ids of the revoked sessions.
 */
export async function revokeAfterPasswordChange(
  ctx: OperationContext,
  projectId: string,
  userId: string,
  keepSessionId: string | null,
): Promise<string[]> {
  const revoked = await revokeUserSessions(ctx, projectId, userId, keepSessionId);
  await revokeUserCodes(ctx, projectId, PASSWORD_RESET_PURPOSE, userId);
  // A new password starts a new count of failed sign-ins (and lifts a lockout).
  const user = await findUser(ctx.db, projectId, userId);
  if (user?.primary_email) await clearSignInFailures(ctx, projectId, user.primary_email);
  return revoked;
}

/**
 * The session a password change keeps: the caller's own, when the request carries an access
 * token (or refresh token) of `userId`; otherwise none.
 */
export function callerSessionOf(ctx: OperationContext, userId: string, refreshTokenSessionId: string | null = null): string | null {
  const token = ctx.auth?.token;
  if (token && token.sub === userId) return token.refresh_token_id;
  return refreshTokenSessionId;
}
