import { defineOperation } from '../operations/define.ts';
import { ServerUserCreateSchema } from './schemas.ts';
import { userFieldsToColumns, emailTakenError } from './apply-fields.ts';
import { finishUserCreation, insertNewUser, type NewUserFields } from './create.ts';
import { toServerUser } from './wire.ts';
import { findUserByAuthEmail, updateUser } from './queries.ts';
import { sealTotpSecret } from '../mfa/index.ts';

/**
 * `POST /users` (server): creates a user with any server fields → 201 server user. The personal
 * team (when `create_team_on_sign_up`) is created after the response object is built, so the
 * response shows `selected_team: null` (wire-protocol §3.7).
 */
export const createUser = defineOperation({
  id: 'users.create',
  method: 'POST',
  path: '/users',
  summary: 'Create a user.',
  access: ['server', 'admin'],
  input: { body: ServerUserCreateSchema },
  errors: ['USER_EMAIL_ALREADY_EXISTS', 'PASSWORD_TOO_SHORT', 'PASSWORD_TOO_LONG'],
  status: 201,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const columns = await userFieldsToColumns(body, 'create');
    // Upstream defaults: an email given on create is usable for sign-in unless told otherwise.
    if (columns.primary_email && body.primary_email_auth_enabled === undefined) columns.primary_email_auth_enabled = 1;
    return ctx.transaction(async (tx) => {
      if (columns.primary_email && columns.primary_email_auth_enabled === 1 && await findUserByAuthEmail(tx.db, project.id, columns.primary_email)) {
        throw emailTakenError(columns.primary_email);
      }
      const { totp_secret_base64: totpSecret, ...fields } = columns;
      let user = await insertNewUser(tx, project, fields as NewUserFields);
      if (typeof totpSecret === 'string') {
        // Sealed with the new user's id as context (core/mfa/secret.ts), so written after the insert.
        const sealed = sealTotpSecret(tx.runtime, project.id, user.id, totpSecret);
        await updateUser(tx.db, project.id, user.id, { totp_secret_base64: sealed });
        user = { ...user, totp_secret_base64: sealed };
      }
      const response = toServerUser(user, project.config, null);
      await finishUserCreation(tx, project, user);
      return response;
    });
  },
});
