/**
 * CLI login (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/): the CLI creates an attempt and polls; a signed-in user confirms
 * the login code on the hosted page `/handler/cli-auth-confirm`; the next poll hands the CLI a
 * refresh token, once.
 */
export { createCliAuth } from './create-cli-auth.ts';
export { pollCliAuth } from './poll-cli-auth.ts';
export { completeCliAuth } from './complete-cli-auth.ts';
