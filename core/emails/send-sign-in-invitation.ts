import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { EmailSchema } from '../lib/schemas.ts';
import { normalizeEmail } from '../lib/email.ts';
import { assertCallbackUrlTrusted } from './callback-url.ts';
import { sendBuiltInEmail } from './send-built-in.ts';
import { enforceEmailLimits } from '../throttle/index.ts';
import { SuccessOutput } from '../operations/output.ts';

/** Queues the sign-in invitation email linking to `callback_url`. */
export const sendSignInInvitation = defineOperation({
  id: 'emails.sendSignInInvitation',
  method: 'POST',
  path: '/internal/send-sign-in-invitation',
  summary: 'Invite someone by email to sign in to the project.',
  access: ['admin'],
  input: { body: v.strictObject({ email: EmailSchema, callback_url: v.string() }) },
  errors: ['REDIRECT_URL_NOT_WHITELISTED'],
  output: SuccessOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    assertCallbackUrlTrusted(ctx.runtime, project, body.callback_url);
    await enforceEmailLimits(ctx, body.email);
    await ctx.transaction((tx) =>
      sendBuiltInEmail(tx, project, { kind: 'sign_in_invitation', to: normalizeEmail(body.email), vars: { link: body.callback_url } }),
    );
    return { success: true };
  },
});
