import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { findUserChannel, getUserOrThrow, toWireChannel } from './channels.ts';
import { ChannelParamsSchema } from './schemas.ts';

/** `GET /contact-channels/{user_id}/{contact_channel_id}` → the channel; unknown → 404 text. */
export const getContactChannel = defineOperation({
  id: 'contactChannels.get',
  method: 'GET',
  path: '/contact-channels/:user_id/:contact_channel_id',
  summary: 'Read one contact channel.',
  access: ['client', 'server', 'admin'],
  input: { params: ChannelParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'],
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const user = await getUserOrThrow(ctx.db, project.id, resolveUserId(ctx.auth, params.user_id));
    const channel = await findUserChannel(ctx.db, project.id, user, params.contact_channel_id);
    if (!channel) throw new StatusError(404, 'Contact channel not found.');
    return toWireChannel(channel);
  },
});
