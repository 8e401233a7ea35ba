export { sendSignInCode } from './send-sign-in-code.ts';
export { signInWithOtp } from './sign-in-with-otp.ts';
export { checkSignInCode } from './check-sign-in-code.ts';
