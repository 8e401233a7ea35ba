import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { assertDevProviderAvailable, DEV_PROVIDER_KEY_AUDIENCE } from './providers/dev-provider.ts';

/** The development provider's public key (RFC 7517). */
export const devProviderJwks = defineOperation({
  id: 'authOauth.devProviderJwks',
  method: 'GET',
  path: '/auth/oauth/dev-provider/jwks',
  summary: 'Built-in development OpenID provider: signing keys.',
  access: 'public',
  input: {},
  errors: ['OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION'],
  output: v.strictObject({
    keys: v.array(
      v.strictObject({
        kty: v.literal('EC'),
        alg: v.literal('ES256'),
        crv: v.literal('P-256'),
        kid: v.string(),
        x: v.string(),
        y: v.string(),
        use: v.literal('sig'),
      }),
    ),
  }),
  async run(ctx) {
    assertDevProviderAvailable(ctx.runtime, null);
    return { keys: ctx.runtime.keys.keysFor(DEV_PROVIDER_KEY_AUDIENCE).map((k) => ({ ...k.publicJwk, use: 'sig' })) };
  },
});
