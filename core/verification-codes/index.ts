import * as v from 'valibot';
import { component } from '../operations/output.ts';

/**
 * The one verification-code engine for every emailed code (OTP / magic link, email verification,
 * password reset, team invitations, …): create → check (no consume) → use (consume once).
 * @see upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/otp/, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx
 */
export {
  createVerificationCode,
  checkVerificationCode,
  useVerificationCode,
  listVerificationCodes,
  findVerificationCode,
  revokeVerificationCode,
  revokeUserCodes,
  consumeVerificationCode,
  wasCodeSentTo,
  splitOtp,
  MAX_ATTEMPTS_PER_CODE,
  type VerificationCode,
} from './engine.ts';

/** The errors `checkVerificationCode`/`useVerificationCode` raise, for an operation's `errors` list. */
export const VERIFICATION_CODE_ERRORS = [
  'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED',
  'VERIFICATION_CODE_NOT_FOUND',
  'VERIFICATION_CODE_EXPIRED',
  'VERIFICATION_CODE_ALREADY_USED',
] as const;

/** `{is_code_valid: true}`: the answer of every check-code route (the code is checked, not used). */
export const CodeValidOutput = component('CodeCheck', v.strictObject({ is_code_valid: v.literal(true) }));
