/**
 * The three levels a caller authenticates at (upstream apps/backend/src/route-handlers/smart-request.tsx): `client` (publishable key,
 * browser), `server` (secret server key) and `admin` (super secret admin key or an owner's
 * admin access token).
 */
export type AccessType = 'client' | 'server' | 'admin';

/** Every access type, lowest first. */
export const ACCESS_TYPES: readonly AccessType[] = ['client', 'server', 'admin'];
