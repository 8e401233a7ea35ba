/**
 * Multi-factor sign-in: the one sign-in exit `finishSignIn` that enforces TOTP, the
 * `POST /auth/mfa/sign-in` completion, TOTP checking with replay refusal, and recovery codes
 * (a Gatehouse extension, docs/mfa.md).
 */
export {
  finishSignIn,
  issueSignInBody,
  FINISH_SIGN_IN_ERRORS,
  SignInOutput,
  SignInNewUserOutput,
  type SignInBody,
} from './finish-sign-in.ts';
export { signInWithMfa } from './sign-in-with-mfa.ts';
export { checkMfaAttemptCode } from './check-mfa-attempt-code.ts';
export { generateTotp } from './totp.ts';
export { deleteSecondFactorState } from './queries.ts';
export { createRecoveryCodes } from './create-recovery-codes.ts';
export { getRecoveryCodeStatus } from './get-recovery-code-status.ts';
export { sealTotpSecret, openTotpSecret } from './secret.ts';
