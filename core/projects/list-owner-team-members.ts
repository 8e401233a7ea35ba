import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { listTeamGrants, requireTeamPermission } from '../permissions/index.ts';
import { listTeamMembers } from '../teams/index.ts';
import { findUser } from '../users/index.ts';
import { component, listOutput, NullableString } from '../operations/output.ts';
import { requireInternalUser } from './require-internal-user.ts';

/** One member of a dashboard team: who can reach every project the team owns. */
const OwnerTeamMemberOutput = component(
  'OwnerTeamMember',
  v.strictObject({
    user_id: v.string(),
    display_name: NullableString,
    primary_email: NullableString,
    /** The team permissions granted directly (e.g. `team_admin`, `team_member`), sorted. */
    permission_ids: v.array(v.string()),
  }),
);

/**
 * Lists the members of one of the signed-in owner's dashboard teams (internal project) with
 * their primary email and directly granted team permissions, so owners can see who can reach
 * the team's projects (Gatehouse extension for the dashboard; upstream's client member
 * profiles carry no email). The caller needs `$read_members` in the team.
 *
 * @throws KnownError EXPECTED_INTERNAL_PROJECT, USER_AUTHENTICATION_REQUIRED, TEAM_PERMISSION_REQUIRED.
 */
export const listOwnerTeamMembers = defineOperation({
  id: 'projects.listOwnerTeamMembers',
  method: 'GET',
  path: '/internal/owner-team-members',
  summary: 'List the members of one of your dashboard teams, with emails and permissions.',
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ team_id: UuidSchema }) },
  errors: ['EXPECTED_INTERNAL_PROJECT', 'USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED'],
  output: listOutput(OwnerTeamMemberOutput),
  async run(ctx, { query }) {
    const me = requireInternalUser(ctx.auth);
    await requireTeamPermission(ctx.db, INTERNAL_PROJECT_ID, query.team_id, me.id, '$read_members');
    const members = await listTeamMembers(ctx.db, INTERNAL_PROJECT_ID, { teamId: query.team_id });
    const grants = await listTeamGrants(ctx.db, INTERNAL_PROJECT_ID, { teamId: query.team_id, recursive: false });
    const items = [];
    for (const member of members) {
      const user = await findUser(ctx.db, INTERNAL_PROJECT_ID, member.user_id);
      items.push({
        user_id: member.user_id,
        display_name: member.display_name ?? user?.display_name ?? null,
        primary_email: user?.primary_email ?? null,
        permission_ids: grants
          .filter((g) => g.user_id === member.user_id)
          .map((g) => g.id)
          .sort(),
      });
    }
    return { items, is_paginated: false };
  },
});
