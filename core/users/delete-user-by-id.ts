import { defineOperation } from '../operations/define.ts';
import { success } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { deleteUserAndNotify } from './delete.ts';
import { getUser } from './get-user.ts';
import { UserIdParams } from './get-user-by-id.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Deletes a user with their sessions and memberships (server/admin access; upstream
 * https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/).
 */
export const deleteUserById = defineOperation({
  id: 'users.delete',
  method: 'DELETE',
  path: '/users/:user_id',
  summary: 'Delete a user by id.',
  access: ['server', 'admin'],
  input: { params: UserIdParams },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const user = await getUser(ctx.db, project.id, resolveUserId(ctx.auth, params.user_id));
    await deleteUserAndNotify(ctx, project.id, user.id);
    return success;
  },
});
