/**
 * What other domains may use of teams: rows, wire shapes and lookups. The operations are in
 * ./operations.ts (for the registry), so that importing these helpers never pulls in the
 * operations and their imports (users, permissions), which would close import cycles.
 */
export {
  findTeam,
  insertTeam,
  insertTeamMember,
  deleteTeamMember,
  listUserTeamIds,
  findTeamMember,
  listTeamMembers,
  updateTeam as updateTeamRow,
  type TeamRow,
} from './queries.ts';
export { toClientTeam, toServerTeam, ClientTeamOutput, ServerTeamOutput } from './wire.ts';
export { getTeam as getTeamOrThrow, getTeamMember } from './lookup.ts';
