import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { clientUpdateEntries, ServerUserBodySchema } from './schemas.ts';
import { updateUserFields, USER_UPDATE_ERRORS } from './update.ts';
import { UserOutput } from './wire.ts';

/**
 * Updates the signed-in user, answering the user in the caller's view. Clients may set
 * only the client fields (`clientUpdateEntries`: display name, profile image, client metadata,
 * selected team, TOTP secret, OTP/passkey flags, primary email); server and admin callers any
 * server field (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/). `display_name: ""` is stored as null.
 * Validation as in `updateUserFields`.
 */
export const updateCurrentUser = defineOperation({
  id: 'users.updateCurrent',
  method: 'PATCH',
  path: '/users/me',
  summary: 'Update the signed-in user.',
  access: ['client', 'server', 'admin'],
  input: { body: ServerUserBodySchema },
  clientInput: { body: v.strictObject(clientUpdateEntries) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', ...USER_UPDATE_ERRORS],
  output: UserOutput,
  async run(ctx, { body }) {
    const { user, project, accessType } = ctx.auth;
    if (!user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    return updateUserFields(ctx, project, user, body, accessType);
  },
});
