import * as v from 'valibot';
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { defineOperation, reply, type OperationContext, type RawReply } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { constantTimeEqual } from '../lib/hash.ts';
import { open, seal } from '../lib/secret-box.ts';
import { isUuid } from '../lib/random.ts';
import { findProject } from '../projects/index.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { providerCallbackUrl } from './authorize-oauth.ts';
import {
  assertDevProviderAvailable,
  DEV_IDENTITIES,
  DEV_PROVIDER_KEY_AUDIENCE,
  devIdentityFor,
  devProviderClientSecret,
  devProviderIssuer,
  type DevIdentity,
} from './providers/dev-provider.ts';
import { HtmlOutput, RedirectOutput } from '../operations/output.ts';

const CODE_KEY_INFO = 'gatehouse dev oidc codes v1';
const CODE_TTL_MS = 60_000;
const TOKEN_TTL_S = 3600;

const field = (max = 4096) => v.pipe(v.string(), v.maxLength(max));
const AuthorizeEntries = {
  client_id: field(256),
  redirect_uri: field(),
  response_type: v.picklist(['code']),
  scope: v.optional(field(1024)),
  state: field(1024),
  code_challenge: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be a base64url S256 challenge')),
  code_challenge_method: v.picklist(['S256']),
  nonce: v.optional(field(1024)),
};

/**
 * Checks that a client id (`<project id>:<provider id>`) names a project's shared provider that
 * may be served (never in production mode, see assertDevProviderAvailable) and that
 * `redirectUri` is its Gatehouse callback.
 */
async function checkClient(ctx: OperationContext, clientId: string, redirectUri: string): Promise<void> {
  assertDevProviderAvailable(ctx.runtime, null);
  const colon = clientId.lastIndexOf(':');
  const projectId = clientId.slice(0, colon);
  const providerId = clientId.slice(colon + 1);
  const project = colon > 0 && (projectId === INTERNAL_PROJECT_ID || isUuid(projectId)) ? await findProject(ctx.db, projectId) : null;
  const config = project?.config.oauthProviders.find((p) => p.id === providerId && p.enabled && p.type === 'shared');
  if (!project || !config) throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: clientId });
  assertDevProviderAvailable(ctx.runtime, project, providerId);
  if (redirectUri !== providerCallbackUrl(ctx.runtime, providerId)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(query: Record<string, string | undefined>): RawReply {
  const hidden = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join('');
  const buttons = DEV_IDENTITIES.map(
    (id) =>
      `<form method="post" action="authorize"><input type="hidden" name="email" value="${escapeHtml(id.email)}"><input type="hidden" name="name" value="${escapeHtml(id.name)}">${hidden}<button type="submit">Continue as ${escapeHtml(id.name)} &lt;${escapeHtml(id.email)}&gt;</button></form>`,
  ).join('');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Gatehouse development sign-in</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}form{margin:.5rem 0}button{width:100%;padding:.7rem;font-size:1rem;border:1px solid #888;border-radius:6px;background:#fff;cursor:pointer}button:focus{outline:3px solid #2563eb}label{display:block;margin-top:1.5rem}input[type=email]{width:100%;padding:.6rem;font-size:1rem;box-sizing:border-box}p{color:#444}</style></head>
<body><main><h1>Development sign-in</h1><p>This is Gatehouse's built-in test provider. It is only available outside production mode. Pick a test identity:</p>${buttons}
<form method="post" action="authorize">${hidden}<label for="email">Or any email</label><input id="email" type="email" name="email" required placeholder="someone@example.com"><button type="submit">Continue with this email</button></form></main></body></html>`;
  return reply.html(body, {
    policy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
  });
}

/** The development provider's page to pick a test identity (OIDC Core §3.1.2.1 request). */
export const devProviderAuthorizePage = defineOperation({
  id: 'authOauth.devProviderAuthorizePage',
  method: 'GET',
  path: '/auth/oauth/dev-provider/authorize',
  summary: 'Built-in development OpenID provider: pick a test identity.',
  access: 'public',
  input: { query: v.strictObject(AuthorizeEntries) },
  errors: ['INVALID_OAUTH_CLIENT_ID_OR_SECRET', 'REDIRECT_URL_NOT_WHITELISTED', 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION'],
  output: HtmlOutput,
  async run(ctx, { query }) {
    await checkClient(ctx, query.client_id, query.redirect_uri);
    return page(query);
  },
});

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
