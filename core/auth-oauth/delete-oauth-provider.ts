import { defineOperation } from '../operations/define.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { deleteAccount } from './queries.ts';
import { getUserAccount } from './provider-links.ts';
import { OAuthProviderParams } from './get-oauth-provider.ts';
import { SuccessOutput } from '../operations/output.ts';

/** Unlinks a provider account and drops its stored tokens. */
export const deleteOAuthProvider = defineOperation({
  id: 'authOauth.deleteOAuthProvider',
  method: 'DELETE',
  path: '/oauth-providers/:user_id/:provider_id',
  summary: "Unlink one of a user's OAuth provider accounts.",
  access: ['client', 'server', 'admin'],
  input: { params: OAuthProviderParams },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    await ctx.transaction(async (tx) => {
      await getUser(tx.db, project.id, userId);
      const account = await getUserAccount(tx.db, project.id, userId, params.provider_id);
      await deleteAccount(tx.db, project.id, account.id);
    });
    return { success: true };
  },
});
