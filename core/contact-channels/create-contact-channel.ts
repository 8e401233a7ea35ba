import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { uuid } from '../lib/random.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { findUser, updateUser } from '../users/index.ts';
import { assertAuthValueFree, channelFromRow, getUserOrThrow, primaryChannelOf, toWireChannel, ContactChannelOutput } from './channels.ts';
import { findChannelRowByValue, insertChannelRow, type ContactChannelRow } from './queries.ts';
import { ClientCreateChannelSchema, ServerCreateChannelSchema } from './schemas.ts';

/**
 * Adds an email contact channel to a user (server also sets `is_verified`) (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/contact-channels/). A primary channel becomes the user's
 * `primary_email`; the previous primary email stays as a non-primary channel with
 * its id.
 *
 * 400 text "Contact channel already exists" when the user already has this channel (upstream
 * `lib/request-checks.tsx`).
 */
export const createContactChannel = defineOperation({
  id: 'contactChannels.create',
  method: 'POST',
  path: '/contact-channels',
  summary: 'Add a contact channel to a user.',
  access: ['client', 'server', 'admin'],
  created: true,
  input: { body: ServerCreateChannelSchema },
  clientInput: { body: ClientCreateChannelSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND', 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE'],
  output: ContactChannelOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, body.user_id, 'Client can only create contact channels for their own user.');
    const value = normalizeEmail(body.value);
    const isVerified = 'is_verified' in body && body.is_verified === true;
    return ctx.transaction(async (tx) => {
      const user = await getUserOrThrow(tx.db, project.id, userId);
      if (user.primary_email === value || (await findChannelRowByValue(tx.db, project.id, user.id, 'email', value))) {
        throw new StatusError('bad-request', 'Contact channel already exists');
      }
      if (body.used_for_auth) await assertAuthValueFree(tx.db, project.id, value, user.id);
      if (body.is_primary) {
        const previous = primaryChannelOf(user);
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
        await updateUser(tx.db, project.id, user.id, {
          primary_email: value,
          primary_email_verified: isVerified,
          primary_email_auth_enabled: body.used_for_auth,
          primary_email_channel_id: uuid(),
        });
        return toWireChannel(primaryChannelOf((await findUser(tx.db, project.id, user.id))!)!);
      }
      const row: ContactChannelRow = {
        id: uuid(),
        project_id: project.id,
        user_id: user.id,
        type: 'email',
        value,
        is_verified: isVerified,
        used_for_auth: body.used_for_auth,
        created_at: tx.now,
      };
      await insertChannelRow(tx.db, row);
      return toWireChannel(channelFromRow(row));
    });
  },
});
