import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { listOutput } from '../operations/output.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { AuthorizedAppOutput, authorizedAppsOf } from './authorized-apps.ts';

/**
 * Lists the applications (clients of the project's identity provider) a user authorized through
 * sign-in and consent or the device flow: name, logo, granted scopes and the time of the first
 * authorization, most recent first. A client lists only its own user (`user_id=me`).
 */
export const listAuthorizedApps = defineOperation({
  id: 'authorizedApps.list',
  method: 'GET',
  path: '/oauth-provider/authorized-apps',
  summary: 'List the applications a user authorized.',
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ user_id: v.optional(UserIdOrMeSchema) }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: listOutput(AuthorizedAppOutput),
  async run(ctx, { query }) {
    const userId = resolveUserId(ctx.auth, query.user_id ?? 'me', 'Client can only list the authorized apps of their own user.');
    const apps = await authorizedAppsOf(ctx.db, ctx.auth.project.id, userId, ctx.now);
    return {
      items: apps.map((app) => ({
        client_id: app.clientId,
        client_name: app.clientName,
        logo_uri: app.logoUri,
        scopes: app.scopes,
        authorized_at: app.authorizedAt,
      })),
      is_paginated: false as const,
    };
  },
});
