import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { finishSignIn, issueSignInBody, type SignInBody } from '../mfa/index.ts';
import type { UserRow } from '../users/index.ts';

/**
 * The body of a successful OAuth sign-in through `mfa.finishSignIn`: a new session plus `extra`
 * (`is_new_user`, `after_callback_redirect_url`), or MULTI_FACTOR_AUTHENTICATION_REQUIRED for a
 * user with TOTP (the SDK's `callOAuthCallback` reads `details.attempt_code` from the token
 * endpoint's error body). Call outside a transaction.
 */
export function completeSignIn<E extends Record<string, unknown>>(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  extra: E,
): Promise<SignInBody<E>> {
  return finishSignIn(ctx, project, user, extra);
}

/** Tokens when the second factor is already satisfied (a cross-domain handoff, an SSO sign-in trusting its IdP's MFA). */
export function handOffSession<E extends Record<string, unknown>>(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  extra: E,
): Promise<SignInBody<E>> {
  return issueSignInBody(ctx, project, user, extra);
}
