/**
 * Multi-factor sign-in (issue 11): the one sign-in exit `finishSignIn` that enforces TOTP, the
 * `POST /auth/mfa/sign-in` completion, TOTP checking with replay refusal, and recovery codes
 * (a Gatehouse extension, docs/mfa.md).
 */
export { finishSignIn, issueSignInBody, FINISH_SIGN_IN_ERRORS, SignInOutput, SignInNewUserOutput, MFA_ATTEMPT_PURPOSE, MFA_ATTEMPT_TTL_MS, MFA_ATTEMPT_MAX_TRIES, type SignInBody, type MfaAttemptData } from './finish-sign-in.ts';
export { signInWithMfa, checkMfaAttemptCode } from './sign-in.ts';
export { matchTotpStep, generateTotp, TOTP_PERIOD_SECONDS, TOTP_DIGITS, TOTP_WINDOW } from './totp.ts';
export { deleteSecondFactorState } from './queries.ts';
export { createRecoveryCodes, getRecoveryCodeStatus } from './create-recovery-codes.ts';
export { RECOVERY_CODE_COUNT } from './recovery-codes.ts';
export { sealTotpSecret, openTotpSecret } from './secret.ts';
