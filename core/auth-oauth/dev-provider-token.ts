import * as v from 'valibot';
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { defineOperation, reply } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { constantTimeEqual } from '../lib/hash.ts';
import { open, seal } from '../lib/secret-box.ts';
import { DEV_PROVIDER_KEY_AUDIENCE, devProviderClientSecret, devProviderIssuer, type DevIdentity } from './providers/dev-provider.ts';
import { CODE_KEY_INFO, TOKEN_TTL_S, checkClient, field } from './dev-provider.ts';

/** Redeems a development code (PKCE checked) for an access token and an ES256 ID Token. */
export const devProviderToken = defineOperation({
  id: 'authOauth.devProviderToken',
  method: 'POST',
  path: '/auth/oauth/dev-provider/token',
  summary: 'Built-in development OpenID provider: token endpoint.',
  access: 'public',
  input: {
    body: v.strictObject({
      grant_type: v.picklist(['authorization_code']),
      code: field(),
      redirect_uri: field(),
      code_verifier: field(256),
      client_id: field(256),
      client_secret: field(256),
    }),
  },
  errors: [
    'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
    'INVALID_AUTHORIZATION_CODE',
    'REDIRECT_URL_NOT_WHITELISTED',
    'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION',
  ],
  output: v.strictObject({
    access_token: v.string(),
    token_type: v.literal('Bearer'),
    expires_in: v.number(),
    id_token: v.string(),
    scope: v.literal('openid email profile'),
  }),
  async run(ctx, { body }) {
    await checkClient(ctx, body.client_id, body.redirect_uri);
    if (!constantTimeEqual(body.client_secret, devProviderClientSecret(ctx.runtime, body.client_id)))
      throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: body.client_id });
    const text = open(ctx.runtime.deriveKey(CODE_KEY_INFO), body.code);
    const data = text
      ? (JSON.parse(text) as {
          client_id: string;
          redirect_uri: string;
          code_challenge: string;
          nonce: string | null;
          identity: DevIdentity;
          exp: number;
        })
      : null;
    const challenge = createHash('sha256').update(body.code_verifier).digest('base64url');
    if (
      !data ||
      data.exp < ctx.now ||
      data.client_id !== body.client_id ||
      data.redirect_uri !== body.redirect_uri ||
      !constantTimeEqual(challenge, data.code_challenge)
    ) {
      throw new KnownError('INVALID_AUTHORIZATION_CODE');
    }
    const issuer = devProviderIssuer(ctx.runtime);
    const key = ctx.runtime.keys.keysFor(DEV_PROVIDER_KEY_AUDIENCE)[0]!;
    const nowS = Math.floor(ctx.now / 1000);
    // Never `email_verified`: the address was typed by whoever stood at the page.
    const idToken = await new SignJWT({
      email: data.identity.email,
      email_verified: false,
      name: data.identity.name,
      ...(data.nonce ? { nonce: data.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .setIssuer(issuer)
      .setSubject(data.identity.sub)
      .setAudience(body.client_id)
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + 600)
      .sign(key.privateKey);
    const accessToken = seal(
      ctx.runtime.deriveKey(CODE_KEY_INFO),
      JSON.stringify({ identity: data.identity, exp: ctx.now + TOKEN_TTL_S * 1000, kind: 'access' }),
    );
    return reply.json({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_S,
      id_token: idToken,
      scope: 'openid email profile',
    });
  },
});
