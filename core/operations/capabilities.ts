import type { AnyOperation } from './define.ts';

/**
 * What this server can do beyond the always-present API, derived from the operation registry so
 * that a switch or button is offered only for something the server answers:
 * the dashboard hides the passkey switch and the OAuth provider form, and the hosted pages hide
 * passkey and OAuth buttons, while the routes behind them are missing. They appear by
 * themselves once those operations are registered.
 */
export interface ServerCapabilities {
  /** Passkey sign-in (`POST /auth/passkey/initiate-passkey-authentication`, upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/). */
  passkey: boolean;
  /** OAuth sign-in (`GET /auth/oauth/authorize/:provider_id`, upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/oauth/). */
  oauth: boolean;
  /** Two-factor sign-in with TOTP (`POST /auth/mfa/sign-in`, upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/). */
  mfa: boolean;
}

/** The route whose presence turns each capability on (method and path as registered). */
export const CAPABILITY_ROUTES: Record<keyof ServerCapabilities, { method: string; path: string }> = {
  passkey: { method: 'POST', path: '/auth/passkey/initiate-passkey-authentication' },
  oauth: { method: 'GET', path: '/auth/oauth/authorize/:provider_id' },
  mfa: { method: 'POST', path: '/auth/mfa/sign-in' },
};

/** The capabilities of a server running `operations`. */
export function serverCapabilities(operations: readonly AnyOperation[]): ServerCapabilities {
  // Parameter names do not matter: `/authorize/:provider_id` and `/authorize/:provider` both count.
  const shape = (path: string) => path.replace(/:[A-Za-z_]+/g, ':');
  const has = (r: { method: string; path: string }) => operations.some((op) => op.method === r.method && shape(op.path) === shape(r.path));
  return { passkey: has(CAPABILITY_ROUTES.passkey), oauth: has(CAPABILITY_ROUTES.oauth), mfa: has(CAPABILITY_ROUTES.mfa) };
}
