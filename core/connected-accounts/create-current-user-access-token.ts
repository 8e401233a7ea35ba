import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { requireUser } from '../auth/user-id.ts';
import { ACCESS_TOKEN_ERRORS, providerAccessToken, ProviderAccessTokenOutput } from './provider-access-token.ts';
import { ProviderIdSchema, ScopeBody } from './create-connected-account-access-token.ts';

/** The signed-in user's variant of the connected-account access token (upstream `auth/oauth/connected-accounts/[provider_id]/access-token`). */
export const createCurrentUserAccessToken = defineOperation({
  id: 'connectedAccounts.createCurrentUserAccessToken',
  method: 'POST',
  path: '/auth/oauth/connected-accounts/:provider_id/access-token',
  summary: "Get an access token for the signed-in user's connected account.",
  access: ['client', 'server', 'admin'],
  created: true,
  input: { params: v.strictObject({ provider_id: ProviderIdSchema }), body: ScopeBody },
  errors: [...ACCESS_TOKEN_ERRORS, 'USER_AUTHENTICATION_REQUIRED'],
  output: ProviderAccessTokenOutput,
  async run(ctx, { params, body }) {
    return providerAccessToken(ctx, ctx.auth.project, requireUser(ctx.auth).id, params.provider_id, body.scope);
  },
});
