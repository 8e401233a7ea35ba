import * as v from 'valibot';
import { component, JsonOutput, MillisOutput, NullableString } from '../operations/output.ts';
import { fromJsonText } from '../lib/json-text.ts';
import type { AccessType } from '../operations/define.ts';
import type { TeamRow } from './queries.ts';

/** Client team object (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/teams/). */
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

const clientTeamEntries = {
  id: v.string(),
  display_name: v.string(),
  profile_image_url: NullableString,
  client_metadata: JsonOutput,
  client_read_only_metadata: JsonOutput,
};

/** Output schema of `toClientTeam`. */
export const ClientTeamOutput = component('ClientTeam', v.strictObject(clientTeamEntries));

/** Output schema of `toServerTeam`. */
export const ServerTeamOutput = component(
  'ServerTeam',
  v.strictObject({ ...clientTeamEntries, created_at_millis: MillisOutput, server_metadata: JsonOutput }),
);

/** A team in the caller's view (`toTeamForAccess`). */
export const TeamOutput = v.union([ServerTeamOutput, ClientTeamOutput]);
