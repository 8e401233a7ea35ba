import * as v from 'valibot';
import { defineOperation, reply } from '../operations/define.ts';
import { seal } from '../lib/secret-box.ts';
import { devIdentityFor } from './providers/dev-provider.ts';
import { RedirectOutput } from '../operations/output.ts';
import { AuthorizeEntries, CODE_KEY_INFO, CODE_TTL_MS, checkClient, field } from './dev-provider.ts';

/** The chosen identity; answers 303 to the callback with a 60-second code. */
export const devProviderAuthorize = defineOperation({
  id: 'authOauth.devProviderAuthorize',
  method: 'POST',
  path: '/auth/oauth/dev-provider/authorize',
  summary: 'Built-in development OpenID provider: sign in as the chosen identity.',
  access: 'public',
  input: {
    body: v.strictObject({
      ...AuthorizeEntries,
      email: v.pipe(v.string(), v.email('must be a valid email'), v.maxLength(254)),
      name: v.optional(field(100)),
    }),
  },
  errors: ['INVALID_OAUTH_CLIENT_ID_OR_SECRET', 'REDIRECT_URL_NOT_WHITELISTED', 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION'],
  output: RedirectOutput,
  async run(ctx, { body }) {
    await checkClient(ctx, body.client_id, body.redirect_uri);
    const identity = devIdentityFor(body.email, body.name);
    const code = seal(
      ctx.runtime.deriveKey(CODE_KEY_INFO),
      JSON.stringify({
        client_id: body.client_id,
        redirect_uri: body.redirect_uri,
        code_challenge: body.code_challenge,
        nonce: body.nonce ?? null,
        identity,
        exp: ctx.now + CODE_TTL_MS,
      }),
    );
    const target = new URL(body.redirect_uri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', body.state);
    return reply.redirect(target.toString(), { seeOther: true });
  },
});
