import { fromJsonText } from '../lib/json-text.ts';
import type { AccessType } from '../operations/define.ts';
import type { TeamRow } from './queries.ts';

/** Client team object (wire-protocol §3.8). */
export function toClientTeam(team: TeamRow) {
  return {
    id: team.id,
    display_name: team.display_name,
    profile_image_url: team.profile_image_url,
    client_metadata: fromJsonText(team.client_metadata),
    client_read_only_metadata: fromJsonText(team.client_read_only_metadata),
  };
}

/** Server team object: the client fields plus `created_at_millis` and `server_metadata`. */
export function toServerTeam(team: TeamRow) {
  return {
    ...toClientTeam(team),
    created_at_millis: Number(team.created_at),
    server_metadata: fromJsonText(team.server_metadata),
  };
}

/** The team object for the caller's access level. */
export function toTeamForAccess(accessType: AccessType, team: TeamRow) {
  return accessType === 'client' ? toClientTeam(team) : toServerTeam(team);
}
