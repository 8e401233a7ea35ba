import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { secureRandomString, uuid } from '../lib/random.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { Runtime } from '../runtime.ts';
import { signAccessToken } from '../tokens/access-token.ts';
import { customClaims } from '../claims-template/index.ts';
import { findUser, restrictedReasonOf, type UserRow } from '../users/index.ts';
import { findRefreshTokenByHash, insertRefreshToken, recordActiveDay, writeSessionActivity, type RefreshTokenRow } from './queries.ts';
import { planActivityWrites, type SessionTouch } from './activity-writer.ts';

/** Default refresh-token lifetime: 365 days (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx). */
export const DEFAULT_REFRESH_TOKEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * The device columns of a session created or refreshed by `ctx`'s caller: its `User-Agent`, and
 * its place from the operator's GeoIP database (JSON of core/lib/geoip.ts `Place`). Only for
 * client callers, the end user's own browser or app: a server key's request comes from the app's
 * backend, whose agent and address say nothing about the user.
 */
function clientDevice(ctx: OperationContext): Pick<RefreshTokenRow, 'user_agent' | 'last_used_place'> {
  if (ctx.auth?.accessType !== 'client') return { user_agent: null, last_used_place: null };
  const place = ctx.runtime.placeOf(ctx.clientAddress);
  return { user_agent: ctx.clientUserAgent, last_used_place: place ? JSON.stringify(place) : null };
}

/** A freshly issued session: both tokens, and the refresh token's id. */
export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  refreshTokenId: string;
}

/**
 * Signs an access token for `user` bound to the session `refreshTokenId` (claims of upstream
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx),
 * plus the custom claims of the project's claims template (`oidc.claimsTemplate`), if any, read
 * through `db` (the caller's transaction, when in one).
 */
export async function mintAccessToken(
  runtime: Runtime,
  project: Project,
  user: UserRow,
  refreshTokenId: string,
  now: number,
  branchId = 'main',
  db = runtime.db,
): Promise<string> {
  return signAccessToken(
    runtime.keys,
    runtime.baseUrl,
    {
      projectId: project.id,
      branchId,
      userId: user.id,
      refreshTokenId,
      displayName: user.display_name,
      primaryEmail: user.primary_email,
      primaryEmailVerified: user.primary_email_verified,
      selectedTeamId: user.selected_team_id,
      signedUpAt: Number(user.signed_up_at),
      isAnonymous: user.is_anonymous,
      restrictedReason: restrictedReasonOf(user, project.config),
      requiresTotpMfa: user.totp_secret_base64 !== null,
    },
    now,
    runtime.accessTokenTtlMs,
    await customClaims(db, project.id, project.config.oidc.claimsTemplate, user),
  );
}

/**
 * Creates a session for `user`: an opaque 224-bit refresh token stored as its SHA-256, and an
 * access token. Uses `ctx.db`, so it joins the caller's transaction.
 *
 * @param options.expiresInMs refresh-token lifetime (default 365 days)
 */
export async function issueSession(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  options: { expiresInMs?: number; isImpersonation?: boolean } = {},
): Promise<IssuedSession> {
  const refreshToken = secureRandomString();
  const row: RefreshTokenRow = {
    id: uuid(),
    project_id: project.id,
    user_id: user.id,
    token_hash: sha256Hex(refreshToken),
    created_at: ctx.now,
    last_used_at: ctx.now,
    expires_at: ctx.now + (options.expiresInMs ?? DEFAULT_REFRESH_TOKEN_TTL_MS),
    is_impersonation: options.isImpersonation === true,
    ...clientDevice(ctx),
  };
  await insertRefreshToken(ctx.db, row);
  // Impersonation is an admin acting, not the user being active.
  if (!options.isImpersonation) await recordActiveDay(ctx.db, project.id, user.id, ctx.now);
  const accessToken = await mintAccessToken(ctx.runtime, project, user, row.id, ctx.now, ctx.auth?.branchId ?? 'main', ctx.db);
  return { accessToken, refreshToken, refreshTokenId: row.id };
}

/**
 * Exchanges a refresh token for a new access token. No rotation: the refresh token stays valid
 * (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx). Updates the session's and the user's last-active time
 * (and the user's active day) before answering, batched with concurrent refreshes
 * (core/sessions/activity-writer.ts).
 *
 * @throws KnownError REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED for an unknown, expired or orphaned token.
 */
export async function refreshSession(
  ctx: OperationContext,
  project: Project,
  refreshToken: string,
): Promise<{ accessToken: string; session: RefreshTokenRow; user: UserRow }> {
  const session = await findRefreshTokenByHash(ctx.db, project.id, sha256Hex(refreshToken));
  if (!session || (session.expires_at !== null && Number(session.expires_at) <= ctx.now)) {
    throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  }
  const user = await findUser(ctx.db, project.id, session.user_id);
  if (!user) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  const device = clientDevice(ctx);
  const touch: SessionTouch = {
    projectId: session.project_id,
    sessionId: session.id,
    userId: session.user_id,
    now: ctx.now,
    previousActiveAt: user.last_active_at === null ? null : Number(user.last_active_at),
    ...(device.user_agent !== null && device.user_agent !== session.user_agent ? { userAgent: device.user_agent } : {}),
    ...(device.last_used_place !== null && device.last_used_place !== session.last_used_place ? { place: device.last_used_place } : {}),
  };
  // Group commit with concurrent refreshes (one commit, one WAL fsync on SQLite, per batch), and
  // answered only once committed. Inside a caller's transaction, write in it instead: the
  // writer's own transaction would wait for that one's connection (SQLite has one).
  if (ctx.db.isTransaction) await writeSessionActivity(ctx.db, planActivityWrites([touch]));
  else await ctx.runtime.sessionActivity.record(touch);
  const accessToken = await mintAccessToken(
    ctx.runtime,
    project,
    { ...user, last_active_at: ctx.now },
    session.id,
    ctx.now,
    ctx.auth?.branchId ?? 'main',
    ctx.db,
  );
  return { accessToken, session, user };
}
