import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { listUserChannels, toWireChannel, ContactChannelOutput } from './channels.ts';
import { findUser } from '../users/index.ts';
import { listOutput } from '../operations/output.ts';

/**
 * Lists a user's contact channels (`user_id=me` for the caller's), the
 * primary email first (upstream `contact-channels/crud.tsx`). Clients may only list their own (403 "Client can only
 * list contact channels for their own user."); an unknown user has none (upstream
 * `contact-channels/crud.tsx` filters channels by user without looking the user up).
 */
export const listContactChannels = defineOperation({
  id: 'contactChannels.list',
  method: 'GET',
  path: '/contact-channels',
  summary: 'List the contact channels of a user.',
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ user_id: UserIdOrMeSchema }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: listOutput(ContactChannelOutput),
  async run(ctx, { query }) {
    const { project } = ctx.auth;
    const user = await findUser(
      ctx.db,
      project.id,
      resolveUserId(ctx.auth, query.user_id, 'Client can only list contact channels for their own user.'),
    );
    const items = user ? await listUserChannels(ctx.db, project.id, user) : [];
    return { items: items.map(toWireChannel), is_paginated: false };
  },
});
