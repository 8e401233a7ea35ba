/**
 * Enterprise SSO for teams (issue 32): SAML 2.0 and OpenID Connect connections per team, and
 * sign-in through them ending like an OAuth sign-in (a code for `/auth/oauth/token`). See docs/sso.md.
 */
export { createSsoConnection } from './create-connection.ts';
export { listSsoConnections, getSsoConnection } from './read-connections.ts';
export { updateSsoConnection } from './update-connection.ts';
export { deleteSsoConnection } from './delete-connection.ts';
export { getSsoSpMetadata } from './sp-metadata.ts';
export { ssoAuthorize } from './authorize.ts';
export { ssoSamlAcs } from './acs.ts';
export { ssoOidcCallback } from './oidc-callback.ts';
export { connectionForEmail, setVerifiedDomainTeams, type VerifiedDomainTeams } from './email-routing.ts';
