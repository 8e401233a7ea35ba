import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { NotificationPreferenceListOutput, userPreferences } from './preferences.ts';

/**
 * Every notification category with the user's effective setting (upstream
 * https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Email).
 */
export const listNotificationPreferences = defineOperation({
  id: 'notifications.listPreferences',
  method: 'GET',
  path: '/emails/notification-preference/:user_id',
  summary: "List a user's notification categories and whether each is enabled.",
  access: ['client', 'server', 'admin'],
  input: { params: v.strictObject({ user_id: UserIdOrMeSchema }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'],
  output: NotificationPreferenceListOutput,
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    await getUser(ctx.db, project.id, userId);
    return { items: await userPreferences(ctx.db, project.id, userId), is_paginated: false };
  },
});
