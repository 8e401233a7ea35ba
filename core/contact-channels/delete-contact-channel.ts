import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { findUser, updateUser } from '../users/index.ts';
import { findUserChannel } from './channels.ts';
import { deleteChannelRow } from './queries.ts';
import { ChannelParamsSchema } from './schemas.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Deletes a contact channel. Deleting the primary channel clears the user's primary email (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/contact-channels/).
 */
export const deleteContactChannel = defineOperation({
  id: 'contactChannels.delete',
  method: 'DELETE',
  path: '/contact-channels/:user_id/:contact_channel_id',
  summary: 'Delete a contact channel.',
  access: ['client', 'server', 'admin'],
  input: { params: ChannelParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id, 'Client can only delete contact channels for their own user.');
    await ctx.transaction(async (tx) => {
      // Upstream looks up only the channel: an unknown user has no such channel.
      const user = await findUser(tx.db, project.id, userId);
      const channel = user ? await findUserChannel(tx.db, project.id, user, params.contact_channel_id) : null;
      if (!user || !channel) throw new StatusError('bad-request', 'Contact channel not found');
      if (channel.isPrimary) {
        await updateUser(tx.db, project.id, user.id, {
          primary_email: null,
          primary_email_verified: false,
          primary_email_auth_enabled: false,
          primary_email_channel_id: null,
        });
      } else {
        await deleteChannelRow(tx.db, project.id, channel.id);
      }
    });
    return { success: true };
  },
});
