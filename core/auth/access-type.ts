/**
 * The three levels a caller authenticates at (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-request.tsx): `client` (publishable key,
 * browser), `server` (secret server key) and `admin` (super secret admin key or an owner's
 * admin access token).
 */
export type AccessType = 'client' | 'server' | 'admin';

/** Every access type, lowest first. */
export const ACCESS_TYPES: readonly AccessType[] = ['client', 'server', 'admin'];
