import type { Runtime } from '../runtime.ts';
import { findUser } from '../users/index.ts';

/** The OpenID Connect standard claims of a user (OpenID Connect Core §5.1), all of them; the provider picks by scope. */
export interface AccountClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  /** Seconds since the epoch. */
  updated_at: number;
}

/**
 * The claims of user `userId` of project `projectId` for ID tokens and userinfo, or null when
 * the user does not exist (deleted): the provider then refuses the user's refresh tokens with
 * `invalid_grant`. `sub` is the user id; `updated_at` is the sign-up time (users carry no later
 * profile time).
 */
export async function accountClaims(runtime: Runtime, projectId: string, userId: string): Promise<AccountClaims | null> {
  if (userId.length > 200) return null;
  const user = await findUser(runtime.db, projectId, userId);
  if (!user) return null;
  return {
    sub: user.id,
    ...(user.primary_email ? { email: user.primary_email, email_verified: Boolean(user.primary_email_verified) } : {}),
    ...(user.display_name ? { name: user.display_name } : {}),
    ...(user.profile_image_url ? { picture: user.profile_image_url } : {}),
    updated_at: Math.floor(Number(user.signed_up_at) / 1000),
  };
}
