import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { SuccessOutput } from '../operations/output.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { ClientParams } from './client-fields.ts';
import { authorizedAppsOf } from './authorized-apps.ts';
import { revokeStoredGrant } from './grants.ts';

/**
 * Revokes a user's authorization of an application: every grant the user gave the client ends,
 * with its access and refresh tokens (the refresh tokens stop working at once), and each sends
 * `oauth_grant.revoked`. The client must ask the user again. A client revokes only for its own
 * user (`user_id=me`).
 */
export const revokeAuthorizedApp = defineOperation({
  id: 'authorizedApps.revoke',
  method: 'DELETE',
  path: '/oauth-provider/authorized-apps/:client_id',
  summary: 'Revoke an application a user authorized.',
  access: ['client', 'server', 'admin'],
  input: { params: ClientParams, query: v.strictObject({ user_id: v.optional(UserIdOrMeSchema) }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: SuccessOutput,
  async run(ctx, { params, query }) {
    const projectId = ctx.auth.project.id;
    const userId = resolveUserId(ctx.auth, query.user_id ?? 'me', 'Client can only revoke the authorized apps of their own user.');
    const app = (await authorizedAppsOf(ctx.db, projectId, userId, ctx.now)).find((a) => a.clientId === params.client_id);
    if (!app) throw new StatusError('not-found', 'Authorized app not found.');
    await ctx.transaction(async (tx) => {
      for (const grant of app.grants) await revokeStoredGrant(tx, projectId, grant);
    });
    return { success: true as const };
  },
});
