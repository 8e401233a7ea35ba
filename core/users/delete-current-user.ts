import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { success } from '../lib/schemas.ts';
import { deleteUserAndNotify } from './delete.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Deletes the signed-in user and, through foreign keys, their sessions and memberships. Clients may do so only when the project has
 * `client_user_deletion_enabled`; otherwise 400 text (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/).
 */
export const deleteCurrentUser = defineOperation({
  id: 'users.deleteCurrent',
  method: 'DELETE',
  path: '/users/me',
  summary: 'Delete the signed-in user.',
  access: ['client', 'server', 'admin'],
  input: {},
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: SuccessOutput,
  async run(ctx) {
    const { user, project, accessType } = ctx.auth;
    if (!user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    if (accessType === 'client' && !project.config.clientUserDeletionEnabled) {
      throw new StatusError('bad-request', 'Client user deletion is not enabled for this project');
    }
    await deleteUserAndNotify(ctx, project.id, user.id);
    return success;
  },
});
