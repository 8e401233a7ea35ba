import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { issueSession } from '../sessions/index.ts';
import type { UserRow } from '../users/index.ts';

/**
 * The sign-in body for a user who proved possession of a passkey:
 * `{access_token, refresh_token, is_new_user: false, user_id}` (wire-protocol §3).
 *
 * TODO(mfa): replace the body with `finishSignIn(ctx, project, user, { is_new_user: false })` from
 * core/mfa/index.ts once it lands, so a TOTP user gets MULTI_FACTOR_AUTHENTICATION_REQUIRED
 * instead of tokens (issue 11 item 1; upstream passkey sign-in calls createMfaRequiredError).
 */
export async function passkeySignInBody(ctx: OperationContext, project: Project, user: UserRow): Promise<object> {
  const session = await issueSession(ctx, project, user);
  return { access_token: session.accessToken, refresh_token: session.refreshToken, is_new_user: false, user_id: user.id };
}
