import { defineOperation } from '../operations/define.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from './get-user.ts';
import { ServerUserBodySchema } from './schemas.ts';
import { updateUserFields, USER_UPDATE_ERRORS } from './update.ts';
import { UserIdParams } from './get-user-by-id.ts';
import { UserOutput } from './wire.ts';

/**
 * Updates any server field of a user, answering the server user (server/admin access; upstream
 * https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/). Validation as in `updateUserFields`.
 */
export const updateUserById = defineOperation({
  id: 'users.update',
  method: 'PATCH',
  path: '/users/:user_id',
  summary: 'Update a user by id.',
  access: ['server', 'admin'],
  input: { params: UserIdParams, body: ServerUserBodySchema },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER', ...USER_UPDATE_ERRORS],
  output: UserOutput,
  async run(ctx, { params, body }) {
    const { project, accessType } = ctx.auth;
    const user = await getUser(ctx.db, project.id, resolveUserId(ctx.auth, params.user_id));
    return updateUserFields(ctx, project, user, body, accessType);
  },
});
