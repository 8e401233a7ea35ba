import { defineOperation } from '../operations/define.ts';
import { requireSelfForClient, resolveMe } from '../auth/user-id.ts';
import { listProjectGrants } from './queries.ts';
import { ProjectPermissionsQuerySchema } from './schemas.ts';
import { ProjectPermissionOutput } from './wire.ts';
import { listOutput } from '../operations/output.ts';

/**
 * Lists project permission grants, filtered by `user_id` and `permission_id`.
 * `recursive` defaults to false (upstream `project-permissions/crud.tsx`). A client must pass `user_id=me` (or its own id), else 403 text.
 */
export const listProjectPermissions = defineOperation({
  id: 'permissions.listProject',
  method: 'GET',
  path: '/project-permissions',
  summary: 'List project permissions of users.',
  access: ['client', 'server', 'admin'],
  input: { query: ProjectPermissionsQuerySchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: listOutput(ProjectPermissionOutput),
  async run(ctx, { query }) {
    const userId = query.user_id === undefined ? undefined : resolveMe(ctx.auth, query.user_id);
    requireSelfForClient(ctx.auth, userId, 'list permissions');
    const items = await listProjectGrants(ctx.db, ctx.auth.project.id, {
      userId,
      permissionId: query.permission_id,
      recursive: query.recursive ?? false,
    });
    return { items, is_paginated: false };
  },
});
