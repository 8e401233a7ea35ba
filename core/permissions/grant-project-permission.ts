import { defineOperation } from '../operations/define.ts';
import { resolveMe } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { checkGrantable } from './lookup.ts';
import { insertProjectGrant } from './queries.ts';
import { ProjectGrantParamsSchema } from './schemas.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { ProjectPermissionOutput } from './wire.ts';

/**
 * Grants a project permission directly to a user, answering `{id, user_id}` (server access).
 * A team permission cannot be granted this way.
 */
export const grantProjectPermission = defineOperation({
  id: 'permissions.grantProject',
  method: 'POST',
  path: '/project-permissions/:user_id/:permission_id',
  summary: 'Grant a project permission to a user.',
  access: ['server', 'admin'],
  input: { params: ProjectGrantParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND', 'PERMISSION_NOT_FOUND', 'WRONG_PERMISSION_SCOPE'],
  created: true,
  output: ProjectPermissionOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    const userId = resolveMe(ctx.auth, params.user_id);
    return ctx.transaction(async (tx) => {
      await getUser(tx.db, projectId, userId);
      await checkGrantable(tx.db, projectId, 'project', params.permission_id);
      await insertProjectGrant(tx.db, projectId, userId, params.permission_id, tx.now);
      await emitWebhookEvent(tx, projectId, 'project_permission.created', { id: params.permission_id, user_id: userId });
      return { id: params.permission_id, user_id: userId };
    });
  },
});
