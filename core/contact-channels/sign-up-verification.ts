import { onPasswordSignUp } from '../auth-password/index.ts';
import { sendVerificationEmail } from './channels.ts';

let registered = false;

/**
 * Registers the password sign-up hook that emails a verification link when the sign-up carries a
 * `verification_callback_url` (wire-protocol §3.1); the email is queued in the sign-up's
 * transaction. Idempotent.
 */
export function registerSignUpVerificationEmail(): void {
  if (registered) return;
  registered = true;
  onPasswordSignUp(async (ctx, project, user, info) => {
    if (info.verificationCallbackUrl && user.primary_email && user.primary_email_verified !== 1) {
      await sendVerificationEmail(ctx, project, user, user.primary_email, info.verificationCallbackUrl);
    }
  });
}
