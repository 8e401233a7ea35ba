import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { RedirectOutput } from '../operations/output.ts';
import { CALLBACK_ERRORS, finishCallback, responseEntries } from './callback.ts';

/** The same for `response_mode=form_post` (Apple); answers 303 so the browser follows with a GET. */
export const oauthCallbackFormPost = defineOperation({
  id: 'authOauth.callbackFormPost',
  method: 'POST',
  path: '/auth/oauth/callback/:provider_id',
  summary: 'The OAuth provider posts its response back here (form_post).',
  access: 'public',
  input: {
    params: v.strictObject({ provider_id: v.pipe(v.string(), v.maxLength(64)) }),
    body: v.strictObject(responseEntries),
  },
  errors: CALLBACK_ERRORS,
  output: RedirectOutput,
  async run(ctx, { params, body }) {
    return finishCallback(ctx, params.provider_id, body as Record<string, string | undefined>, true);
  },
});
