/**
 * What a password sign-up listener learns besides the user (core/hooks.ts `passwordSignUp`). On
 * its own so the domain's index.ts can export it without importing users (users imports this
 * domain's index.ts for hashing and the password rules).
 */
export interface PasswordSignUpInfo {
  /** The `verification_callback_url` of the request (already checked as trusted), or null. */
  verificationCallbackUrl: string | null;
}
