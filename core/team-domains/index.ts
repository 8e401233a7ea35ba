/**
 * Verified email domains of teams (issue 32 item 3): claim, DNS TXT challenge, verification, and
 * enforced SSO for the verified domains' addresses. Also the `$manage_sso` access check that the
 * SCIM tokens (core/scim) share.
 */
export { createTeamDomain } from './create-team-domain.ts';
export { listTeamDomains } from './list-team-domains.ts';
export { deleteTeamDomain } from './delete-team-domain.ts';
export { updateTeamDomain } from './update-team-domain.ts';
export { verifyTeamDomain } from './verify-team-domain.ts';
export { assertSsoNotRequired } from './enforcement.ts';
export { requireCanManageSso, MANAGE_SSO_ERRORS } from './access.ts';
export { findVerifiedDomain } from './queries.ts';
