import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { assertDevProviderAvailable, devProviderIssuer } from './providers/dev-provider.ts';

/** Discovery (OpenID Connect Discovery 1.0 §3). */
export const devProviderDiscovery = defineOperation({
  id: 'authOauth.devProviderDiscovery',
  method: 'GET',
  path: '/auth/oauth/dev-provider/.well-known/openid-configuration',
  summary: 'Built-in development OpenID provider: discovery document.',
  access: 'public',
  input: {},
  errors: ['OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION'],
  output: v.strictObject({
    issuer: v.string(),
    authorization_endpoint: v.string(),
    token_endpoint: v.string(),
    jwks_uri: v.string(),
    response_types_supported: v.array(v.string()),
    subject_types_supported: v.array(v.string()),
    id_token_signing_alg_values_supported: v.array(v.string()),
    code_challenge_methods_supported: v.array(v.string()),
    token_endpoint_auth_methods_supported: v.array(v.string()),
    scopes_supported: v.array(v.string()),
  }),
  async run(ctx) {
    assertDevProviderAvailable(ctx.runtime, null);
    const issuer = devProviderIssuer(ctx.runtime);
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post'],
      scopes_supported: ['openid', 'email', 'profile'],
    };
  },
});
