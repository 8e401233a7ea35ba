import type { RestrictedReason } from '../tokens/access-token.ts';
import type { ProjectConfig } from '../config/project-config.ts';
import type { UserRow } from './queries.ts';

/**
 * Why a user is restricted, or null (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/ `restricted_reason`): anonymous users
 * first, then unverified emails when the project requires verification (the user can fix that
 * one, so it is shown first, as upstream does), then users restricted by an administrator or a
 * sign-up rule. `is_restricted` is true exactly when this is non-null.
 */
export function restrictedReasonOf(user: UserRow, config: ProjectConfig): RestrictedReason {
  if (user.is_anonymous) return { type: 'anonymous' };
  if (config.requireEmailVerification && !user.primary_email_verified) return { type: 'email_not_verified' };
  if (user.restricted_by_admin) return { type: 'restricted_by_administrator' };
  return null;
}
