/** The password domain's operations, listed by the registry (core/operations/registry.ts). */
export { signUpWithPassword } from './sign-up-with-password.ts';
export { signInWithPassword } from './sign-in-with-password.ts';
export { updatePassword } from './update-password.ts';
export { setPassword } from './set-password.ts';
export { sendResetCode } from './send-reset-code.ts';
export { checkResetCode } from './check-reset-code.ts';
export { resetPassword } from './reset-password.ts';
