import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { Project } from '../projects/index.ts';
import type { AccessType } from '../operations/define.ts';
import * as v from 'valibot';
import { findUser, toServerUser, ServerUserOutput } from '../users/index.ts';
import { component, NullableString } from '../operations/output.ts';
import { findTeam, type TeamMemberRow } from './queries.ts';

/**
 * A member profile `{team_id, user_id, display_name, profile_image_url}`; the profile's own name
 * and image fall back to the user's. Server and admin views add `user`, the full server user
 * (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts: the SDK dereferences its `risk_scores`).
 */
export async function toProfileJson(db: Kysely<Database>, project: Project, accessType: AccessType, member: TeamMemberRow) {
  const user = await findUser(db, project.id, member.user_id);
  const profile = {
    team_id: member.team_id,
    user_id: member.user_id,
    display_name: member.display_name ?? user?.display_name ?? null,
    profile_image_url: member.profile_image_url ?? user?.profile_image_url ?? null,
  };
  if (accessType === 'client' || !user) return profile;
  const selected = user.selected_team_id ? await findTeam(db, project.id, user.selected_team_id) : null;
  return { ...profile, user: toServerUser(user, project.config, selected) };
}

/** Output schema of `toProfileJson`: `user` only in server and admin views. */
export const TeamMemberProfileOutput = component(
  'TeamMemberProfile',
  v.strictObject({
    team_id: v.string(),
    user_id: v.string(),
    display_name: NullableString,
    profile_image_url: NullableString,
    user: v.optional(ServerUserOutput),
  }),
);
