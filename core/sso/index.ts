/**
 * Enterprise SSO for teams (issue 32): SAML 2.0 and OpenID Connect connections per team, and
 * sign-in through them ending like an OAuth sign-in (a code for `/auth/oauth/token`). See docs/sso.md.
 */
export { createSsoConnection } from './create-sso-connection.ts';
export { listSsoConnections } from './list-sso-connections.ts';
export { getSsoConnection } from './get-sso-connection.ts';
export { updateSsoConnection } from './update-sso-connection.ts';
export { deleteSsoConnection } from './delete-sso-connection.ts';
export { refreshSsoConnectionMetadata } from './refresh-sso-connection-metadata.ts';
export { startMetadataRefresh, stopMetadataRefresh } from './metadata-refresh.ts';
export { getSsoSpMetadata } from './get-sso-sp-metadata.ts';
export { ssoAuthorize } from './sso-authorize.ts';
export { discoverSso } from './discover-sso.ts';
export { ssoSamlAcs } from './sso-saml-acs.ts';
export { ssoOidcCallback } from './sso-oidc-callback.ts';
export { setVerifiedDomainTeams, type VerifiedDomainTeams } from './email-routing.ts';
