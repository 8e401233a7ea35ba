import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { getUserAccount, toOAuthProviderWire, OAuthProviderOutput } from './provider-links.ts';

/** Path of one linked provider account: the user, and the link's id (or the provider's id). */
export const OAuthProviderParams = v.strictObject({
  user_id: UserIdOrMeSchema,
  provider_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
});

/** One linked provider account (404 text when absent). */
export const getOAuthProvider = defineOperation({
  id: 'authOauth.getOAuthProvider',
  method: 'GET',
  path: '/oauth-providers/:user_id/:provider_id',
  summary: "Get one of a user's linked OAuth provider accounts.",
  access: ['client', 'server', 'admin'],
  input: { params: OAuthProviderParams },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: OAuthProviderOutput,
  async run(ctx, { params }) {
    const { project, accessType } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    await getUser(ctx.db, project.id, userId);
    return toOAuthProviderWire(await getUserAccount(ctx.db, project.id, userId, params.provider_id), project, accessType);
  },
});
