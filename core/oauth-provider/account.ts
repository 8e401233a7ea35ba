import type { Runtime } from '../runtime.ts';
import { findUser, type UserRow } from '../users/index.ts';
import { findUserWithPayload } from './queries.ts';
import { payloadHash } from './payload-hash.ts';
import { currentWriteBatch } from './write-batch.ts';
import { findRefreshToken, findRefreshTokenByHash } from '../sessions/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { customClaims } from '../claims-template/index.ts';
import type { Project } from '../projects/index.ts';

/** The OpenID Connect standard claims of a user (OpenID Connect Core §5.1), all of them; the provider picks by scope. */
export interface AccountClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  /** Seconds since the epoch. */
  updated_at: number;
  /** The custom claims of the project's claims template (`oidc.claimsTemplate`). */
  [custom: string]: unknown;
}

/** The model under which a grant remembers the Gatehouse session that approved it (server-bin/oidc interaction.ts writes it). */
export const SESSION_LINK_MODEL = 'GatehouseSessionLink';

/**
 * The claims of user `userId` of `project` for ID tokens and userinfo, or null when the user
 * does not exist (deleted): the provider then refuses the user's refresh tokens with
 * `invalid_grant`. `sub` is the user id; `updated_at` is the sign-up time (users carry no later
 * profile time); the project's claims template adds its custom claims.
 */
export async function accountClaims(runtime: Runtime, project: Project, userId: string): Promise<AccountClaims | null> {
  if (userId.length > 200) return null;
  const user = await findUser(runtime.db, project.id, userId);
  return user ? claimsOf(runtime, project, user) : null;
}

/**
 * The claims of user `userId` (as {@link accountClaims}) for a token of grant `grantId`, or null
 * when the user does not exist or when the grant was approved in the hosted pages (it has a
 * session link) and that Gatehouse session is signed out or expired: a signed-out or deleted
 * user's refresh tokens stop working at once. The user, the link and the linked session come in
 * one query (a link written before its `uid` column named the session needs a second), or with
 * the refresh token's own query when the request read them with it (write-batch.ts).
 */
export async function grantAccountClaims(
  runtime: Runtime,
  project: Project,
  userId: string,
  grantId: string | undefined,
): Promise<AccountClaims | null> {
  if (grantId === undefined) return accountClaims(runtime, project, userId);
  if (userId.length > 200) return null;
  // A refresh grant read them with its refresh token (payloads.ts find), in the same request.
  const prefetched = currentWriteBatch()?.takePrefetchedAccount(project.id, userId, grantId);
  const found =
    prefetched !== undefined
      ? prefetched
      : await findUserWithPayload(runtime.db, project.id, userId, {
          model: SESSION_LINK_MODEL,
          idHash: payloadHash(grantId),
          now: runtime.clock.now(),
        });
  if (!found) return null;
  if (found.linkSessionId !== null) {
    const expiresAt = found.session?.expiresAt;
    if (!found.session || (expiresAt !== null && expiresAt !== undefined && expiresAt <= runtime.clock.now())) return null;
  } else {
    // A link written before the session id had its column: the session is read from its payload, in a second query.
    const sessionId = found.linkPayload === null ? undefined : linkedSessionId(found.linkPayload);
    if (sessionId !== undefined && !(await isSessionLive(runtime, project.id, sessionId))) return null;
  }
  return claimsOf(runtime, project, found.user);
}

/** The Gatehouse session id a stored session link names, if it names one (an unreadable link names none). */
function linkedSessionId(payload: string): string | undefined {
  try {
    const sessionId = (JSON.parse(payload) as { sessionId?: unknown }).sessionId;
    return typeof sessionId === 'string' ? sessionId : undefined;
  } catch {
    return undefined;
  }
}

async function claimsOf(runtime: Runtime, project: Project, user: UserRow): Promise<AccountClaims> {
  return {
    ...(await customClaims(runtime.db, project.id, project.config.oidc.claimsTemplate, user)),
    sub: user.id,
    ...(user.primary_email ? { email: user.primary_email, email_verified: user.primary_email_verified } : {}),
    ...(user.display_name ? { name: user.display_name } : {}),
    ...(user.profile_image_url ? { picture: user.profile_image_url } : {}),
    updated_at: Math.floor(Number(user.signed_up_at) / 1000),
  };
}

/**
 * The user and Gatehouse session a hosted-pages refresh token (the HttpOnly cookie of the
 * project's hosted sign-in) stands for, or null when unknown or expired: the identity
 * provider's sign-in step reads who signed in through it.
 */
export async function signedInUser(
  runtime: Runtime,
  projectId: string,
  refreshToken: string,
): Promise<{ userId: string; sessionId: string } | null> {
  if (refreshToken.length === 0 || refreshToken.length > 500) return null;
  const row = await findRefreshTokenByHash(runtime.db, projectId, sha256Hex(refreshToken));
  if (!row) return null;
  if (row.expires_at !== null && Number(row.expires_at) <= runtime.clock.now()) return null;
  return { userId: row.user_id, sessionId: row.id };
}

/** Whether Gatehouse session `sessionId` of the project is still live (not signed out, not expired). */
async function isSessionLive(runtime: Runtime, projectId: string, sessionId: string): Promise<boolean> {
  const row = await findRefreshToken(runtime.db, projectId, sessionId);
  return row !== null && (row.expires_at === null || Number(row.expires_at) > runtime.clock.now());
}
