/** The password-reset operations, kept apart from the accounts engineer's index. */
export { sendResetCode } from './send-reset-code.ts';
export { checkResetCode } from './check-reset-code.ts';
export { resetPassword } from './reset-password.ts';
