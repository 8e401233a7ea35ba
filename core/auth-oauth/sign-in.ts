import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { issueSession } from '../sessions/index.ts';
import type { UserRow } from '../users/index.ts';

/**
 * The body of a successful OAuth sign-in: a new session plus `extra` (`is_new_user`,
 * `after_callback_redirect_url`). Call outside a transaction.
 *
 * The multi-factor rule (a TOTP user gets MULTI_FACTOR_AUTHENTICATION_REQUIRED, not tokens)
 * belongs here; it switches to `mfa.finishSignIn` once that lands on main.
 */
export async function completeSignIn<E extends Record<string, unknown>>(ctx: OperationContext, project: Project, user: UserRow, extra: E): Promise<{ access_token: string; refresh_token: string; user_id: string } & E> {
  const session = await issueSession(ctx, project, user);
  return { access_token: session.accessToken, refresh_token: session.refreshToken, user_id: user.id, ...extra };
}

/** Tokens for a cross-domain handoff of an already signed-in user (no second-factor step). */
export async function handOffSession<E extends Record<string, unknown>>(ctx: OperationContext, project: Project, user: UserRow, extra: E): Promise<{ access_token: string; refresh_token: string; user_id: string } & E> {
  const session = await issueSession(ctx, project, user);
  return { access_token: session.accessToken, refresh_token: session.refreshToken, user_id: user.id, ...extra };
}
