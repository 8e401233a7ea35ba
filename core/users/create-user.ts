import { storeDataImages } from '../images/index.ts';
import { assertPrimaryEmailRules } from './update.ts';
import { defineOperation } from '../operations/define.ts';
import { ServerUserCreateSchema } from './schemas.ts';
import { userFieldsToColumns, emailTakenError } from './apply-fields.ts';
import { finishUserCreation, insertNewUser, type NewUserFields } from './create.ts';
import { toServerUser } from './wire.ts';
import { findUserByAuthEmail } from './queries.ts';

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
    assertPrimaryEmailRules(null, columns);
    // Upstream defaults: an email given on create is usable for sign-in unless told otherwise.
    if (columns.primary_email && body.primary_email_auth_enabled === undefined) columns.primary_email_auth_enabled = 1;
    return ctx.transaction(async (tx) => {
      // A base64 profile image is stored by Gatehouse and replaced by its URL (issue 14 item 8).
      if (typeof columns.profile_image_url === 'string') {
        columns.profile_image_url = (await storeDataImages(tx, project.id, { profile_image_url: columns.profile_image_url }, ['profile_image_url'])).profile_image_url;
      }
      if (columns.primary_email && columns.primary_email_auth_enabled === 1 && await findUserByAuthEmail(tx.db, project.id, columns.primary_email)) {
        throw emailTakenError(columns.primary_email);
      }
      const user = await insertNewUser(tx, project, columns as NewUserFields);
      const response = toServerUser(user, project.config, null);
      await finishUserCreation(tx, project, user);
      return response;
    });
  },
});
