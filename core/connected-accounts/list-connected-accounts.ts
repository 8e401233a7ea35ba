import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { listLinkedAccounts } from '../auth-oauth/index.ts';
import { component, listOutput } from '../operations/output.ts';

/** Accounts usable as connected accounts. */
export const listConnectedAccounts = defineOperation({
  id: 'connectedAccounts.list',
  method: 'GET',
  path: '/connected-accounts/:user_id',
  summary: "List a user's connected accounts.",
  access: ['client', 'server', 'admin'],
  input: { params: v.strictObject({ user_id: UserIdOrMeSchema }) },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: listOutput(
    component('ConnectedAccount', v.strictObject({ user_id: v.string(), provider: v.string(), provider_account_id: v.string() })),
  ),
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    await getUser(ctx.db, project.id, userId);
    const accounts = (await listLinkedAccounts(ctx.db, project.id, userId)).filter((a) => a.allow_connected_accounts);
    return {
      items: accounts.map((a) => ({ user_id: userId, provider: a.provider_id, provider_account_id: a.provider_account_id })),
      is_paginated: false,
    };
  },
});
