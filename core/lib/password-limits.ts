/**
 * Password length limits: 8 to 70 characters (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts;
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx). Imports nothing, so the hosted
 * pages and the dashboard check a new password against the same numbers the server enforces
 * (through core/validation.ts; core/auth-password/rules.ts is the server side).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;
