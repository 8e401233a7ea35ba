/** The password domain's operations, listed by the registry (core/operations/registry.ts). */
export { signUpWithPassword } from './sign-up-with-password.ts';
export { signInWithPassword } from './sign-in-with-password.ts';
export { updatePassword } from './update-password.ts';
export { setPassword } from './set-password.ts';
export { sendResetCode, checkResetCode, resetPassword } from './password-reset.ts';
