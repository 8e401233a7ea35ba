import { defineOperation } from '../operations/define.ts';
import { requireSelfForClient, resolveMe } from '../auth/user-id.ts';
import { listTeamGrants } from './queries.ts';
import { TeamPermissionsQuerySchema } from './schemas.ts';
import { TeamPermissionOutput } from './wire.ts';
import { listOutput } from '../operations/output.ts';

/**
 * Lists team permission grants, filtered by `team_id`, `user_id` and `permission_id`,
 * sorted by team, user, id. `recursive` (default false, as upstream's `team-permissions/crud.tsx`) adds every contained permission. A client
 * must pass `user_id=me` (or its own id), else 403 text (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/team-permissions/; upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts).
 */
export const listTeamPermissions = defineOperation({
  id: 'permissions.listTeam',
  method: 'GET',
  path: '/team-permissions',
  summary: 'List team permissions of users.',
  access: ['client', 'server', 'admin'],
  input: { query: TeamPermissionsQuerySchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: listOutput(TeamPermissionOutput),
  async run(ctx, { query }) {
    const userId = query.user_id === undefined ? undefined : resolveMe(ctx.auth, query.user_id);
    requireSelfForClient(ctx.auth, userId, 'list permissions');
    const items = await listTeamGrants(ctx.db, ctx.auth.project.id, {
      teamId: query.team_id,
      userId,
      permissionId: query.permission_id,
      recursive: query.recursive ?? false,
    });
    return { items, is_paginated: false };
  },
});
