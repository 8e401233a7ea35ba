import { storeDataImages } from '../images/index.ts';
import { assertPrimaryEmailRules } from './update.ts';
import { defineOperation } from '../operations/define.ts';
import { ServerUserCreateSchema } from './schemas.ts';
import { userFieldsToColumns, emailTakenError } from './apply-fields.ts';
import { finishUserCreation, insertNewUser, type NewUserFields } from './create.ts';
import { toServerUser, ServerUserOutput } from './wire.ts';
import { findUserByAuthEmail, insertOAuthProviderLinks, updateUser } from './queries.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { sealTotpSecret } from '../mfa/index.ts';
import { isValidEmail } from '../lib/email.ts';

/**
 * Creates a user with any server fields, answering the server user (server access). The personal
 * team (when `create_team_on_sign_up`) is created after the response object is built, so the
 * response shows `selected_team: null` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/).
 */
export const createUser = defineOperation({
  id: 'users.create',
  method: 'POST',
  path: '/users',
  summary: 'Create a user.',
  access: ['server', 'admin'],
  input: { body: ServerUserCreateSchema },
  errors: [
    'USER_EMAIL_ALREADY_EXISTS',
    'PASSWORD_TOO_SHORT',
    'PASSWORD_TOO_LONG',
    'PASSWORD_REQUIREMENTS_NOT_MET',
    'OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN',
  ],
  created: true,
  output: ServerUserOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const { oauth_providers: oauthProviders = [], ...fields } = body;
    for (const link of oauthProviders) {
      if (!project.config.oauthProviders.some((p) => p.id === link.id))
        throw new StatusError('bad-request', `OAuth provider ${link.id} is not configured for this project.`);
    }
    const columns = await userFieldsToColumns(fields, 'create', ctx.runtime.passwordHashCost);
    assertPrimaryEmailRules(null, columns);
    // Upstream leaves a server-created email out of sign-in unless told (users/crud.tsx onCreate).
    // Gatehouse turns it on by default where it can be used: a strictly valid address that no
    // other user signs in with. A legacy address, or one another account signs in with, stays
    // off, as upstream answers (its e2e users.test.ts "…doesn't match the strict email schema",
    // "…email auth disabled even if the email already exists…"; docs/compatibility.md).
    const authByDefault = Boolean(columns.primary_email) && body.primary_email_auth_enabled === undefined;
    if (authByDefault) columns.primary_email_auth_enabled = isValidEmail(String(columns.primary_email));
    return ctx.transaction(async (tx) => {
      // A base64 profile image is stored by Gatehouse and replaced by its URL.
      if (typeof columns.profile_image_url === 'string') {
        columns.profile_image_url = (
          await storeDataImages(tx, project.id, { profile_image_url: columns.profile_image_url }, ['profile_image_url'])
        ).profile_image_url;
      }
      if (
        columns.primary_email &&
        columns.primary_email_auth_enabled &&
        (await findUserByAuthEmail(tx.db, project.id, columns.primary_email))
      ) {
        if (!authByDefault) throw emailTakenError(columns.primary_email);
        columns.primary_email_auth_enabled = false;
      }
      const { totp_secret_base64: totpSecret, ...fields } = columns;
      let user = await insertNewUser(tx, project, fields as NewUserFields);
      if (typeof totpSecret === 'string') {
        // Sealed with the new user's id as context (core/mfa/secret.ts), so written after the insert.
        const sealed = sealTotpSecret(tx.runtime, project.id, user.id, totpSecret);
        await updateUser(tx.db, project.id, user.id, { totp_secret_base64: sealed });
        user = { ...user, totp_secret_base64: sealed };
      }
      const links = oauthProviders.map((l) => ({ id: l.id, account_id: l.account_id, email: l.email ?? null }));
      try {
        await insertOAuthProviderLinks(tx.db, project.id, user.id, links, ctx.now);
      } catch (error) {
        // The unique index (project, provider, account id): another user already has this account.
        if (ctx.runtime.storage.isUniqueViolation(error)) throw new KnownError('OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN');
        throw error;
      }
      const response = toServerUser(user, project.config, null, links);
      await finishUserCreation(tx, project, user);
      return response;
    });
  },
});
