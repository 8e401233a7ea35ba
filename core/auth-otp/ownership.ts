import { KnownError } from '../errors/index.ts';
import type { UserRow } from '../users/index.ts';

/**
 * Refuses OTP / magic-link sign-in into an existing account whose primary email was never
 * verified, whatever its `otp_auth_enabled` says: whoever created that account never proved the
 * address and may hold its password and sessions, so the address's owner must not be signed into
 * it (account pre-hijacking; upstream `ensureUserForEmailAllowsOtp`; issue 12 finding 2).
 *
 * @throws KnownError USER_EMAIL_ALREADY_EXISTS `{email, would_work_if_email_was_verified: true}`.
 */
export function assertOtpMayReach(user: UserRow | null, email: string): void {
  if (user && user.primary_email_verified !== 1) {
    throw new KnownError('USER_EMAIL_ALREADY_EXISTS', { email, would_work_if_email_was_verified: true });
  }
}
