export { signUpAnonymously } from './sign-up-anonymous.ts';
