import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { uuid } from '../lib/random.ts';
import { resolveMe } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { findAccountByProviderAccount, insertAccount, type OAuthAccountRow } from './queries.ts';
import { toOAuthProviderWire, OAuthProviderOutput } from './provider-links.ts';

/**
 * Links a provider account to a user without an OAuth flow
 * (imports). The provider must be configured (400 text otherwise, as upstream). Server access.
 */
export const createOAuthProvider = defineOperation({
  id: 'authOauth.createOAuthProvider',
  method: 'POST',
  path: '/oauth-providers',
  summary: 'Link a provider account to a user (server).',
  access: ['server', 'admin'],
  created: true,
  input: {
    body: v.strictObject({
      user_id: UserIdOrMeSchema,
      provider_config_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
      account_id: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
      email: v.optional(v.pipe(v.string(), v.email('must be a valid email'))),
      allow_sign_in: v.boolean(),
      allow_connected_accounts: v.boolean(),
    }),
  },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER', 'OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN'],
  output: OAuthProviderOutput,
  async run(ctx, { body }) {
    const { project, accessType } = ctx.auth;
    const userId = resolveMe(ctx.auth, body.user_id);
    if (!project.config.oauthProviders.some((p) => p.id === body.provider_config_id)) {
      throw new StatusError(
        'bad-request',
        `Provider with config ID ${body.provider_config_id} is not configured. Please check your OAuth configuration on the Gatehouse dashboard.`,
      );
    }
    return ctx.transaction(async (tx) => {
      await getUser(tx.db, project.id, userId);
      if (await findAccountByProviderAccount(tx.db, project.id, body.provider_config_id, body.account_id))
        throw new KnownError('OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN');
      const account: OAuthAccountRow = {
        id: uuid(),
        project_id: project.id,
        user_id: userId,
        provider_id: body.provider_config_id,
        provider_account_id: body.account_id,
        email: body.email ?? null,
        allow_sign_in: body.allow_sign_in,
        allow_connected_accounts: body.allow_connected_accounts,
        created_at: ctx.now,
      };
      await insertAccount(tx.db, account);
      return toOAuthProviderWire(account, project, accessType);
    });
  },
});
