import { sha256Hex } from '../lib/hash.ts';
import type { OperationContext } from '../operations/define.ts';
import { findRefreshToken, findRefreshTokenByHash } from '../sessions/index.ts';
import { findUser, type UserRow } from '../users/index.ts';

/** A live session of the project and its user. */
export interface LiveSession {
  sessionId: string;
  user: UserRow;
}

function live(
  row: { id: string; user_id: string; expires_at: number | null } | null,
  now: number,
): row is { id: string; user_id: string; expires_at: number | null } {
  return row !== null && (row.expires_at === null || Number(row.expires_at) > now);
}

/**
 * The unexpired session a refresh token names in the project, with its user, or null (unknown,
 * expired, another project's, or its user deleted).
 */
export async function sessionOfRefreshToken(ctx: OperationContext, projectId: string, refreshToken: string): Promise<LiveSession | null> {
  const row = await findRefreshTokenByHash(ctx.db, projectId, sha256Hex(refreshToken));
  if (!live(row, ctx.now)) return null;
  const user = await findUser(ctx.db, projectId, row.user_id);
  return user ? { sessionId: row.id, user } : null;
}

/** The CLI's anonymous session by id, while it is alive and its user is still anonymous; else null. */
export async function anonymousSessionById(
  ctx: OperationContext,
  projectId: string,
  sessionId: string | null,
): Promise<LiveSession | null> {
  if (sessionId === null) return null;
  const row = await findRefreshToken(ctx.db, projectId, sessionId);
  if (!live(row, ctx.now)) return null;
  const user = await findUser(ctx.db, projectId, row.user_id);
  return user && user.is_anonymous ? { sessionId: row.id, user } : null;
}
