export { signUpAnonymously } from './sign-up-anonymously.ts';
