import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { ACCESS_TOKEN_ERRORS, providerAccessToken, ProviderAccessTokenOutput } from './provider-access-token.ts';
import { ProviderIdSchema, ScopeBody } from './create-connected-account-access-token.ts';

/** The same for one account of the provider. */
export const createAccountAccessToken = defineOperation({
  id: 'connectedAccounts.createAccountAccessToken',
  method: 'POST',
  path: '/connected-accounts/:user_id/:provider_id/:provider_account_id/access-token',
  summary: 'Get an access token for one connected account.',
  access: ['client', 'server', 'admin'],
  created: true,
  input: {
    params: v.strictObject({
      user_id: UserIdOrMeSchema,
      provider_id: ProviderIdSchema,
      provider_account_id: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
    }),
    body: ScopeBody,
  },
  errors: ACCESS_TOKEN_ERRORS,
  output: ProviderAccessTokenOutput,
  async run(ctx, { params, body }) {
    return providerAccessToken(
      ctx,
      ctx.auth.project,
      resolveUserId(ctx.auth, params.user_id),
      params.provider_id,
      body.scope,
      params.provider_account_id,
    );
  },
});
