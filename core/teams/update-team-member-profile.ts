import type { Updateable } from 'kysely';
import { releaseReplacedImages, storeDataImages } from '../images/index.ts';
import { defineOperation } from '../operations/define.ts';
import type { TeamMembersTable } from '../storage/tables.ts';
import { requireSelfForClient, resolveMe } from '../auth/user-id.ts';
import { getTeamMember } from './lookup.ts';
import { toProfileJson, TeamMemberProfileOutput } from './profiles.ts';
import { findTeamMember, updateTeamMember } from './queries.ts';
import { MembershipParamsSchema, ProfileUpdateSchema } from './schemas.ts';

/**
 * Updates a team member's profile (display name, profile image). A client may only update its
 * own (403 text otherwise).
 */
export const updateTeamMemberProfile = defineOperation({
  id: 'teams.updateMemberProfile',
  method: 'PATCH',
  path: '/team-member-profiles/:team_id/:user_id',
  summary: 'Update a team member profile.',
  access: ['client', 'server', 'admin'],
  input: { params: MembershipParamsSchema, body: ProfileUpdateSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'TEAM_MEMBERSHIP_NOT_FOUND'],
  output: TeamMemberProfileOutput,
  async run(ctx, { params, body }) {
    const { project, accessType } = ctx.auth;
    const userId = resolveMe(ctx.auth, params.user_id);
    requireSelfForClient(ctx.auth, userId, 'update team member profiles');
    return ctx.transaction(async (tx) => {
      const before = await getTeamMember(tx.db, project.id, params.team_id, userId);
      const changes: Updateable<TeamMembersTable> = {};
      if (body.display_name !== undefined) changes.display_name = body.display_name === '' ? null : body.display_name;
      if (body.profile_image_url !== undefined) {
        changes.profile_image_url = (
          await storeDataImages(tx, project.id, { profile_image_url: body.profile_image_url }, ['profile_image_url'])
        ).profile_image_url;
        await releaseReplacedImages(tx, project.id, before, changes, ['profile_image_url']);
      }
      await updateTeamMember(tx.db, project.id, params.team_id, userId, changes);
      return toProfileJson(tx.db, project, accessType, (await findTeamMember(tx.db, project.id, params.team_id, userId))!);
    });
  },
});
