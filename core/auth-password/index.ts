export { signUpWithPassword } from './sign-up.ts';
export { signInWithPassword } from './sign-in.ts';
export { updatePassword } from './update-password.ts';
export { setPassword } from './set-password.ts';
export type { PasswordSignUpInfo } from './hooks.ts';
export { hashPassword, verifyPassword, verifyAgainstDummy, isBcryptHash } from './hashing.ts';
export { assertPasswordAcceptable, PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from './rules.ts';
