import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { findAccountByProviderAccount, listUserAccounts, updateAccount } from './queries.ts';
import { getUserAccount, toOAuthProviderWire, OAuthProviderOutput } from './provider-links.ts';
import { OAuthProviderParams } from './get-oauth-provider.ts';

const ClientUpdate = v.strictObject({ allow_sign_in: v.optional(v.boolean()), allow_connected_accounts: v.optional(v.boolean()) });
const ServerUpdate = v.strictObject({
  allow_sign_in: v.optional(v.boolean()),
  allow_connected_accounts: v.optional(v.boolean()),
  email: v.optional(v.pipe(v.string(), v.email('must be a valid email'))),
  account_id: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(256))),
});

/**
 * Turns sign-in and connected-account use of a
 * linked account on or off (server: also its `email` and `account_id`). A provider account may
 * sign in only one user.
 */
export const updateOAuthProvider = defineOperation({
  id: 'authOauth.updateOAuthProvider',
  method: 'PATCH',
  path: '/oauth-providers/:user_id/:provider_id',
  summary: "Update one of a user's linked OAuth provider accounts.",
  access: ['client', 'server', 'admin'],
  input: { params: OAuthProviderParams, body: ServerUpdate },
  clientInput: { params: OAuthProviderParams, body: ClientUpdate },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER', 'OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN'],
  output: OAuthProviderOutput,
  async run(ctx, { params, body }) {
    const { project, accessType } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    return ctx.transaction(async (tx) => {
      await getUser(tx.db, project.id, userId);
      const account = await getUserAccount(tx.db, project.id, userId, params.provider_id);
      const accountId = body.account_id ?? account.provider_account_id;
      if (accountId !== account.provider_account_id) {
        const other = await findAccountByProviderAccount(tx.db, project.id, account.provider_id, accountId);
        if (other) throw new KnownError('OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN');
      }
      if (body.allow_sign_in === true) {
        const siblings = await listUserAccounts(tx.db, project.id, userId, account.provider_id);
        if (siblings.some((a) => a.id !== account.id && a.allow_sign_in && a.provider_account_id === accountId))
          throw new KnownError('OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN');
      }
      const fields = {
        ...(body.allow_sign_in !== undefined ? { allow_sign_in: body.allow_sign_in } : {}),
        ...(body.allow_connected_accounts !== undefined ? { allow_connected_accounts: body.allow_connected_accounts } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.account_id !== undefined ? { provider_account_id: body.account_id } : {}),
      };
      await updateAccount(tx.db, project.id, account.id, fields);
      return toOAuthProviderWire({ ...account, ...fields }, project, accessType);
    });
  },
});
