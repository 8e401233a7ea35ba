export { sendSignInCode } from './send-sign-in-code.ts';
export { signInWithOtp } from './sign-in.ts';
export { checkSignInCode } from './check-sign-in-code.ts';
