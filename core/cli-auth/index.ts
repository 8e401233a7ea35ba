/**
 * CLI login (upstream apps/backend/src/app/api/latest/auth/): the CLI creates an attempt and polls; a signed-in user confirms
 * the login code on the hosted page `/handler/cli-auth-confirm`; the next poll hands the CLI a
 * refresh token, once.
 */
export { createCliAuth } from './create-cli-auth.ts';
export { pollCliAuth } from './poll-cli-auth.ts';
export { completeCliAuth } from './complete-cli-auth.ts';
