import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { updateUser } from '../users/index.ts';
import { findUserChannel, getUserOrThrow } from './channels.ts';
import { deleteChannelRow } from './queries.ts';
import { ChannelParamsSchema } from './schemas.ts';

/**
 * `DELETE /contact-channels/{user_id}/{contact_channel_id}` → `{success: true}`. Deleting the
 * primary channel clears the user's primary email (wire-protocol §3.4).
 */
export const deleteContactChannel = defineOperation({
  id: 'contactChannels.delete',
  method: 'DELETE',
  path: '/contact-channels/:user_id/:contact_channel_id',
  summary: 'Delete a contact channel.',
  access: ['client', 'server', 'admin'],
  input: { params: ChannelParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'],
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    await ctx.transaction(async (tx) => {
      const user = await getUserOrThrow(tx.db, project.id, userId);
      const channel = await findUserChannel(tx.db, project.id, user, params.contact_channel_id);
      if (!channel) throw new StatusError(400, 'Contact channel not found');
      if (channel.isPrimary) {
        await updateUser(tx.db, project.id, user.id, { primary_email: null, primary_email_verified: 0, primary_email_auth_enabled: 0, primary_email_channel_id: null });
      } else {
        await deleteChannelRow(tx.db, project.id, channel.id);
      }
    });
    return { success: true };
  },
});
