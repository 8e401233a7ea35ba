import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { listProjectAccounts, listUserAccounts } from './queries.ts';
import { toOAuthProviderWire, OAuthProviderOutput } from './provider-links.ts';
import { listOutput } from '../operations/output.ts';

/**
 * The provider accounts linked
 * to a user (clients: only their own; server: any user, or every link of the project without
 * `user_id`). Upstream `oauth-providers/crud.tsx` `onList`.
 */
export const listOAuthProviders = defineOperation({
  id: 'authOauth.listOAuthProviders',
  method: 'GET',
  path: '/oauth-providers',
  summary: "List a user's linked OAuth provider accounts.",
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ user_id: v.optional(UserIdOrMeSchema) }) },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: listOutput(OAuthProviderOutput),
  async run(ctx, { query }) {
    const { project, accessType } = ctx.auth;
    let accounts;
    if (query.user_id === undefined && accessType !== 'client') {
      accounts = await listProjectAccounts(ctx.db, project.id);
    } else {
      const userId = resolveUserId(ctx.auth, query.user_id ?? 'me');
      await getUser(ctx.db, project.id, userId);
      accounts = await listUserAccounts(ctx.db, project.id, userId);
    }
    return { items: accounts.map((a) => toOAuthProviderWire(a, project, accessType)), is_paginated: false };
  },
});
