import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import { requireUser, resolveMe } from '../auth/user-id.ts';
import { toProfileJson, TeamMemberProfileOutput } from './profiles.ts';
import { listTeamMembers } from './queries.ts';
import { listOutput } from '../operations/output.ts';

/**
 * Lists team member profiles, filtered by `team_id` and `user_id`. A client lists its own
 * profiles (`user_id=me`), or a team's members when it holds `$read_members` there; without
 * either filter a client gets 403 text.
 */
export const listTeamMemberProfiles = defineOperation({
  id: 'teams.listMemberProfiles',
  method: 'GET',
  path: '/team-member-profiles',
  summary: 'List team member profiles.',
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ team_id: v.optional(UuidSchema), user_id: v.optional(UserIdOrMeSchema) }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED'],
  output: listOutput(TeamMemberProfileOutput),
  async run(ctx, { query }) {
    const { project, accessType } = ctx.auth;
    const userId = query.user_id === undefined ? undefined : resolveMe(ctx.auth, query.user_id);
    if (accessType === 'client') {
      const self = requireUser(ctx.auth);
      if (userId !== self.id) {
        if (!query.team_id) throw new StatusError('forbidden', 'Client can only list member profiles of a team, or their own (user_id=me)');
        await requireTeamPermission(ctx.db, project.id, query.team_id, self.id, '$read_members');
      }
    }
    const members = await listTeamMembers(ctx.db, project.id, { teamId: query.team_id, userId });
    const items = [];
    for (const member of members) items.push(await toProfileJson(ctx.db, project, accessType, member));
    return { items, is_paginated: false };
  },
});
