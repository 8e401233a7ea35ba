import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { findUserChannel, toWireChannel, ContactChannelOutput } from './channels.ts';
import { findUser } from '../users/index.ts';
import { ChannelParamsSchema } from './schemas.ts';

/**
 * Reads one contact channel; an unknown channel or user is 404 text "Contact channel not found.";
 * a client asking about another user gets 403 "Client can only read contact channels for their
 * own user." (upstream `contact-channels/crud.tsx`).
 */
export const getContactChannel = defineOperation({
  id: 'contactChannels.get',
  method: 'GET',
  path: '/contact-channels/:user_id/:contact_channel_id',
  summary: 'Read one contact channel.',
  access: ['client', 'server', 'admin'],
  input: { params: ChannelParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: ContactChannelOutput,
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const user = await findUser(
      ctx.db,
      project.id,
      resolveUserId(ctx.auth, params.user_id, 'Client can only read contact channels for their own user.'),
    );
    const channel = user ? await findUserChannel(ctx.db, project.id, user, params.contact_channel_id) : null;
    if (!channel) throw new StatusError('not-found', 'Contact channel not found.');
    return toWireChannel(channel);
  },
});
