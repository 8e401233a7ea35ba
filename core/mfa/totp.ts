import { Secret, TOTP } from 'otpauth';

/** TOTP parameters (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/mfa/, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx; RFC 6238 defaults): HMAC-SHA-1, 30 s steps, 6 digits. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one, for clock drift. */
export const TOTP_WINDOW = 1;

/**
 * Checks a 6-digit TOTP `code` against the user's secret (`totp_secret_base64`, as set through
 * `PATCH /users/me`) at time `nowMs`, accepting the current step and one step either side.
 *
 * @returns the RFC 6238 time step (counter) the code belongs to, or null when it matches none.
 *   The caller records the step so the same code is never accepted twice ({@link claimTotpStep}).
 * @see RFC 6238 §4, §5.2; upstream `auth/mfa/sign-in/verification-code-handler.tsx`
 */
export function matchTotpStep(secretBase64: string, code: string, nowMs: number): number | null {
  const token = code.trim();
  if (!/^\d{6}$/.test(token)) return null;
  const bytes = Buffer.from(secretBase64, 'base64');
  if (bytes.length === 0) return null;
  const secret = new Secret({ buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) });
  const delta = TOTP.validate({
    token,
    secret,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    timestamp: nowMs,
    window: TOTP_WINDOW,
  });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: nowMs }) + delta;
}

/** The current TOTP code for a secret (tests and the enrolment check in the UI use the same parameters). */
export function generateTotp(secretBase64: string, nowMs: number): string {
  const bytes = Buffer.from(secretBase64, 'base64');
  const secret = new Secret({ buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) });
  return TOTP.generate({ secret, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, timestamp: nowMs });
}
