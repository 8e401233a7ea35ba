import { KnownError } from '../errors/index.ts';
import type { ContactChannel } from '../contact-channels/index.ts';

/**
 * Refuses OTP / magic-link sign-in into an existing account through an email channel (primary or
 * not) that was never verified, whatever its `otp_auth_enabled` says: whoever created that account
 * never proved the address and may hold its password and sessions, so the address's owner must not
 * be signed into it (account pre-hijacking; upstream `ensureUserForEmailAllowsOtp`
 * finding 2).
 *
 * @param found the auth-enabled channel holding the address, or null when no user signs in with it.
 * @throws KnownError USER_EMAIL_ALREADY_EXISTS `{email, would_work_if_email_was_verified: true}`.
 */
export function assertOtpMayReach(found: { channel: ContactChannel } | null, email: string): void {
  if (found && !found.channel.isVerified) {
    throw new KnownError('USER_EMAIL_ALREADY_EXISTS', { email, would_work_if_email_was_verified: true });
  }
}
