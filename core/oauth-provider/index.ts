export { createOAuthClient, listOAuthClients, getOAuthClient, updateOAuthClient, deleteOAuthClient } from './client-operations.ts';
export { createInitialAccessToken } from './initial-access-token.ts';
export { oidcModelStore, type OidcModelStore, type OidcPayload } from './payloads.ts';
export { skipsConsent, clientMetadata } from './client-record.ts';
export { findClientRow, deleteAccountRows } from './queries.ts';
export { STANDARD_SCOPES } from './wire.ts';
export { accountClaims, signedInUser, isSessionLive, type AccountClaims } from './account.ts';
