import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { assertCallbackUrlTrusted } from '../emails/index.ts';
import { findUserChannel, getUserOrThrow, sendVerificationEmail } from './channels.ts';
import { CallbackBodySchema, ChannelParamsSchema } from './schemas.ts';
import { enforceEmailLimits } from '../throttle/index.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Queues a verification email for that channel (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/contact-channels/).
 *
 * 404 text for an unknown channel.
 */
export const sendChannelVerificationCode = defineOperation({
  id: 'contactChannels.sendChannelVerificationCode',
  method: 'POST',
  path: '/contact-channels/:user_id/:contact_channel_id/send-verification-code',
  summary: 'Email a verification link for one contact channel.',
  access: ['client', 'server', 'admin'],
  input: { params: ChannelParamsSchema, body: CallbackBodySchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND', 'REDIRECT_URL_NOT_WHITELISTED', 'EMAIL_ALREADY_VERIFIED'],
  output: SuccessOutput,
  async run(ctx, { params, body }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    assertCallbackUrlTrusted(ctx.runtime, project, body.callback_url);
    await ctx.transaction(async (tx) => {
      const user = await getUserOrThrow(tx.db, project.id, userId);
      const channel = await findUserChannel(tx.db, project.id, user, params.contact_channel_id);
      if (!channel) throw new StatusError('not-found', 'Contact channel not found.');
      if (channel.isVerified) throw new KnownError('EMAIL_ALREADY_VERIFIED');
      await enforceEmailLimits(tx, channel.value);
      await sendVerificationEmail(tx, project, user, channel.value, body.callback_url);
    });
    return { success: true };
  },
});
