import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { ACCESS_TOKEN_ERRORS, providerAccessToken, ProviderAccessTokenOutput } from './provider-access-token.ts';

export const ScopeBody = v.strictObject({ scope: v.optional(v.pipe(v.string(), v.maxLength(2048))) });
export const ProviderIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/**
 * Issues a fresh provider access token of the user's connected account (see `providerAccessToken`).
 */
export const createConnectedAccountAccessToken = defineOperation({
  id: 'connectedAccounts.createAccessToken',
  method: 'POST',
  path: '/connected-accounts/:user_id/:provider_id/access-token',
  summary: "Get an access token for a user's connected account.",
  access: ['client', 'server', 'admin'],
  created: true,
  input: { params: v.strictObject({ user_id: UserIdOrMeSchema, provider_id: ProviderIdSchema }), body: ScopeBody },
  errors: ACCESS_TOKEN_ERRORS,
  output: ProviderAccessTokenOutput,
  async run(ctx, { params, body }) {
    return providerAccessToken(ctx, ctx.auth.project, resolveUserId(ctx.auth, params.user_id), params.provider_id, body.scope);
  },
});
