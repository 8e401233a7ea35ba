import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { success } from '../lib/schemas.ts';
import { resolveMe } from '../auth/user-id.ts';
import { checkGrantable } from './lookup.ts';
import { deleteProjectGrant } from './queries.ts';
import { ProjectGrantParamsSchema } from './schemas.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Revokes a project permission from a user (server access). Only direct grants can be revoked.
 */
export const revokeProjectPermission = defineOperation({
  id: 'permissions.revokeProject',
  method: 'DELETE',
  path: '/project-permissions/:user_id/:permission_id',
  summary: 'Revoke a project permission from a user.',
  access: ['server', 'admin'],
  input: { params: ProjectGrantParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'PERMISSION_NOT_FOUND', 'WRONG_PERMISSION_SCOPE', 'PROJECT_PERMISSION_REQUIRED'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    const userId = resolveMe(ctx.auth, params.user_id);
    await ctx.transaction(async (tx) => {
      await checkGrantable(tx.db, projectId, 'project', params.permission_id);
      if (!(await deleteProjectGrant(tx.db, projectId, userId, params.permission_id))) {
        throw new KnownError('PROJECT_PERMISSION_REQUIRED', { user_id: userId, permission_id: params.permission_id });
      }
      await emitWebhookEvent(tx, projectId, 'project_permission.deleted', { id: params.permission_id, user_id: userId });
    });
    return success;
  },
});
