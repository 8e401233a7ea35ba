import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UserRow } from '../users/index.ts';
import type { PasswordSignUpInfo } from '../auth-password/index.ts';
import { sendVerificationEmail } from './channels.ts';

/**
 * The password sign-up listener (wired in core/hooks.ts) that emails a verification link when the
 * sign-up carries a `verification_callback_url` and the email is not verified yet
 * (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/); the email is queued in the sign-up's transaction.
 */
export async function sendSignUpVerificationEmail(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  info: PasswordSignUpInfo,
): Promise<void> {
  if (info.verificationCallbackUrl && user.primary_email && !user.primary_email_verified) {
    await sendVerificationEmail(ctx, project, user, user.primary_email, info.verificationCallbackUrl);
  }
}
