export { sendTeamInvitation } from './send-team-invitation.ts';
export { listTeamInvitations } from './list-team-invitations.ts';
export { revokeTeamInvitation } from './revoke-team-invitation.ts';
export { acceptTeamInvitation } from './accept-team-invitation.ts';
export { checkTeamInvitationCode } from './check-team-invitation-code.ts';
export { getTeamInvitationDetails } from './get-team-invitation-details.ts';
export { acceptTeamInvitationById } from './accept-team-invitation-by-id.ts';
