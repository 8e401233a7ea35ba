import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { component } from '../operations/output.ts';
import { oidcModelStore } from './payloads.ts';

const InitialAccessTokenOutput = component(
  'OAuthInitialAccessToken',
  v.strictObject({ initial_access_token: v.string(), expires_at_millis: v.number() }),
);

/**
 * `POST /internal/oauth-initial-access-tokens` (admin): mints an initial access token for
 * dynamic client registration (RFC 7591 §3, `oidc.dynamicClientRegistration` =
 * `initial_access_token`): a 256-bit opaque value shown once, stored hashed as oidc-provider's
 * `InitialAccessToken` model; `expires_in_seconds` 60…31,536,000 (default 1 day). Each token may
 * register any number of clients until it expires.
 */
export const createInitialAccessToken = defineOperation({
  id: 'oauthClients.createInitialAccessToken',
  method: 'POST',
  path: '/internal/oauth-initial-access-tokens',
  summary: 'Mint an initial access token for dynamic client registration.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      expires_in_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(60), v.maxValue(31_536_000)), 86_400),
    }),
  },
  errors: [],
  created: true,
  output: InitialAccessTokenOutput,
  async run(ctx, { body }) {
    const jti = randomBytes(32).toString('base64url');
    const iat = Math.floor(ctx.now / 1000);
    const exp = iat + body.expires_in_seconds;
    await oidcModelStore(ctx.runtime, ctx.auth.project.id, 'InitialAccessToken').upsert(
      jti,
      { iat, exp, jti, kind: 'InitialAccessToken' },
      body.expires_in_seconds,
    );
    return { initial_access_token: jti, expires_at_millis: exp * 1000 };
  },
});
