import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { RedirectOutput } from '../operations/output.ts';
import { CALLBACK_ERRORS, finishCallback, responseEntries } from './callback.ts';

/**
 * The provider's redirect back to Gatehouse. Unknown
 * response parameters are ignored, as RFC 6749 §4.1.2 requires of clients (providers add their
 * own, e.g. Google's `authuser`, Entra's `session_state`).
 */
export const oauthCallback = defineOperation({
  id: 'authOauth.callback',
  method: 'GET',
  path: '/auth/oauth/callback/:provider_id',
  summary: 'The OAuth provider redirects back here.',
  access: 'public',
  ignoresUnknownQuery: true,
  input: {
    params: v.strictObject({ provider_id: v.pipe(v.string(), v.maxLength(64)) }),
    query: v.looseObject(responseEntries),
  },
  errors: CALLBACK_ERRORS,
  output: RedirectOutput,
  async run(ctx, { params, query }) {
    return finishCallback(ctx, params.provider_id, query as Record<string, string | undefined>, false);
  },
});
