import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUser } from '../users/index.ts';
import { StatusError } from '../errors/index.ts';
import { findCategory } from './categories.ts';
import { NotificationPreferenceOutput, toWirePreference } from './preferences.ts';
import { upsertPreference } from './queries.ts';

/**
 * Turns one category on or off for the user and answers the updated item (upstream
 * https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Email). An unknown category is 404 text; disabling a
 * transactional category is 400 text.
 */
export const updateNotificationPreference = defineOperation({
  id: 'notifications.updatePreference',
  method: 'PATCH',
  path: '/emails/notification-preference/:user_id/:notification_category_id',
  summary: 'Enable or disable one notification category for a user.',
  access: ['client', 'server', 'admin'],
  input: {
    params: v.strictObject({ user_id: UserIdOrMeSchema, notification_category_id: v.string() }),
    body: v.strictObject({ enabled: v.boolean() }),
  },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'],
  output: NotificationPreferenceOutput,
  async run(ctx, { params, body }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    const category = findCategory(params.notification_category_id);
    if (!category) throw new StatusError('not-found', 'Notification category not found.');
    if (!category.canDisable && !body.enabled) throw new StatusError('bad-request', 'This notification category cannot be disabled.');
    await getUser(ctx.db, project.id, userId);
    await upsertPreference(ctx.db, project.id, userId, category.id, body.enabled);
    return toWirePreference(category, category.canDisable ? body.enabled : true);
  },
});
