import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { userPreferences } from './preferences.ts';

/**
 * `GET /emails/notification-preference/{user_id}` → `{items: [{notification_category_id,
 * notification_category_name, enabled, can_disable}], is_paginated: false}` (upstream packages/stack-shared/src/interface/crud/ Email).
 */
export const listNotificationPreferences = defineOperation({
  id: 'notifications.listPreferences',
  method: 'GET',
  path: '/emails/notification-preference/:user_id',
  summary: 'List a user\'s notification categories and whether each is enabled.',
  access: ['client', 'server', 'admin'],
  input: { params: v.strictObject({ user_id: UserIdOrMeSchema }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'],
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    await getUser(ctx.db, project.id, userId);
    return { items: await userPreferences(ctx.db, project.id, userId), is_paginated: false };
  },
});
