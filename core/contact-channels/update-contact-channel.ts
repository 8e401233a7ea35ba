import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { findUser, updateUser } from '../users/index.ts';
import { assertAuthValueFree, channelFromRow, findUserChannel, primaryChannelOf, toWireChannel, ContactChannelOutput } from './channels.ts';
import { deleteChannelRow, findChannelRow, findChannelRowByValue, insertChannelRow, updateChannelRow } from './queries.ts';
import { ChannelParamsSchema, ClientUpdateChannelSchema, ServerUpdateChannelSchema } from './schemas.ts';

/**
 * Updates a contact channel's value, type, auth use and primary flag (server also `is_verified`)
 * (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/contact-channels/). A new value is
 * unverified unless `is_verified` says otherwise. Making a channel primary demotes the current
 * primary email (kept in `users.primary_email*`) to a non-primary channel; every channel keeps its
 * id through promotion and demotion, as upstream.
 *
 * 400 text "Contact channel not found"; 400 text "Contact channel already exists" when the new
 * value is another channel of the user (upstream).
 */
export const updateContactChannel = defineOperation({
  id: 'contactChannels.update',
  method: 'PATCH',
  path: '/contact-channels/:user_id/:contact_channel_id',
  summary: 'Update a contact channel.',
  access: ['client', 'server', 'admin'],
  input: { params: ChannelParamsSchema, body: ServerUpdateChannelSchema },
  clientInput: { params: ChannelParamsSchema, body: ClientUpdateChannelSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE'],
  output: ContactChannelOutput,
  async run(ctx, { params, body }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id, 'Client can only update contact channels for their own user.');
    return ctx.transaction(async (tx) => {
      // Upstream looks up only the channel: an unknown user has no such channel.
      const user = await findUser(tx.db, project.id, userId);
      const channel = user ? await findUserChannel(tx.db, project.id, user, params.contact_channel_id) : null;
      if (!user || !channel) throw new StatusError('bad-request', 'Contact channel not found');
      const value = body.value === undefined ? channel.value : normalizeEmail(body.value);
      const valueChanged = value !== channel.value;
      if (valueChanged && (user.primary_email === value || (await findChannelRowByValue(tx.db, project.id, user.id, 'email', value)))) {
        throw new StatusError('bad-request', 'Contact channel already exists');
      }
      const usedForAuth = body.used_for_auth ?? channel.usedForAuth;
      const explicitVerified = 'is_verified' in body ? body.is_verified : undefined;
      const isVerified = explicitVerified ?? (valueChanged ? false : channel.isVerified);
      const isPrimary = body.is_primary ?? channel.isPrimary;
      if (usedForAuth && (valueChanged || !channel.usedForAuth)) await assertAuthValueFree(tx.db, project.id, value, user.id);
      const primaryCols = { primary_email: value, primary_email_verified: isVerified, primary_email_auth_enabled: usedForAuth };
      const rowCols = { value, is_verified: isVerified, used_for_auth: usedForAuth };

      if (channel.isPrimary && isPrimary) {
        await updateUser(tx.db, project.id, user.id, primaryCols);
      } else if (channel.isPrimary) {
        // Demoted: the channel keeps its id as a non-primary one.
        await insertChannelRow(tx.db, {
          id: channel.id,
          project_id: project.id,
          user_id: user.id,
          type: 'email',
          created_at: tx.now,
          ...rowCols,
        });
        await updateUser(tx.db, project.id, user.id, {
          primary_email: null,
          primary_email_verified: false,
          primary_email_auth_enabled: false,
          primary_email_channel_id: null,
        });
        return toWireChannel(channelFromRow((await findChannelRow(tx.db, project.id, user.id, channel.id))!));
      } else if (!isPrimary) {
        await updateChannelRow(tx.db, project.id, channel.id, rowCols);
        return toWireChannel(channelFromRow((await findChannelRow(tx.db, project.id, user.id, channel.id))!));
      } else {
        // Promoted: it keeps its id, and the previous primary email stays as a channel with its own.
        const previous = primaryChannelOf(user);
        await deleteChannelRow(tx.db, project.id, channel.id);
        if (previous) {
          await insertChannelRow(tx.db, {
            id: previous.id,
            project_id: project.id,
            user_id: user.id,
            type: 'email',
            value: previous.value,
            is_verified: previous.isVerified,
            used_for_auth: previous.usedForAuth,
            created_at: tx.now,
          });
        }
        await updateUser(tx.db, project.id, user.id, { ...primaryCols, primary_email_channel_id: channel.id });
      }
      return toWireChannel(primaryChannelOf((await findUser(tx.db, project.id, user.id))!)!);
    });
  },
});
