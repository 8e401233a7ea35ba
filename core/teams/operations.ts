/** The teams domain's operations, listed by the registry (core/operations/registry.ts). */
export { listTeams } from './list-teams.ts';
export { createTeam } from './create-team.ts';
export { getTeam } from './get-team.ts';
export { updateTeam } from './update-team.ts';
export { deleteTeam } from './delete-team.ts';
export { addTeamMember } from './add-team-member.ts';
export { removeTeamMember } from './remove-team-member.ts';
export { listTeamMemberProfiles } from './list-team-member-profiles.ts';
export { getTeamMemberProfile } from './get-team-member-profile.ts';
export { updateTeamMemberProfile } from './update-team-member-profile.ts';
