import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { getUserOrThrow, listUserChannels, toWireChannel } from './channels.ts';

/**
 * `GET /contact-channels?user_id=me` → `{items, is_paginated: false}`: the user's channels, the
 * primary email first (upstream apps/backend/src/app/api/latest/contact-channels/). Clients may only list their own.
 */
export const listContactChannels = defineOperation({
  id: 'contactChannels.list',
  method: 'GET',
  path: '/contact-channels',
  summary: 'List the contact channels of a user.',
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ user_id: UserIdOrMeSchema }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'],
  async run(ctx, { query }) {
    const { project } = ctx.auth;
    const user = await getUserOrThrow(ctx.db, project.id, resolveUserId(ctx.auth, query.user_id));
    const items = await listUserChannels(ctx.db, project.id, user);
    return { items: items.map(toWireChannel), is_paginated: false };
  },
});
