/**
 * Verified email domains of teams (issue 32 item 3): claim, DNS TXT challenge, verification, and
 * enforced SSO for the verified domains' addresses. Also the `$manage_sso` access check that the
 * SCIM tokens (core/scim) share.
 */
export { createTeamDomain } from './create-team-domain.ts';
export { listTeamDomainsOp } from './list-team-domains.ts';
export { deleteTeamDomainOp } from './delete-team-domain.ts';
export { updateTeamDomainOp } from './update-team-domain.ts';
export { verifyTeamDomain } from './verify-team-domain.ts';
export { assertSsoNotRequired, ssoStartUrl } from './enforcement.ts';
export { requireCanManageSso, MANAGE_SSO_ERRORS } from './access.ts';
export { findVerifiedDomain } from './queries.ts';
export { normalizeDomain } from './schemas.ts';
