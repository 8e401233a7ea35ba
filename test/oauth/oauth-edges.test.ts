import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, it } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, internal, type Caller } from '../helpers/api.ts';
import { INTERNAL_KEYS } from '../helpers/server.ts';
import { APP_ERROR_URL, authorizeUrl, exchangeCode, followCallback, newAppFlow, type AppFlow } from '../helpers/oauth-flow.ts';
import type { TestServer } from '../helpers/server.ts';
import { devIdentityFor } from '../../core/auth-oauth/providers/dev-provider.ts';

// A loopback stand-in for Apple's JWKS (https://appleid.apple.com/auth/keys) and its RS256 key.
const appleKeys = await generateKeyPair('RS256');
const appleJwk = { ...(await exportJWK(appleKeys.publicKey)), kid: 'apple-test-key', alg: 'RS256', use: 'sig' };
const apple: Server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ keys: [appleJwk] }));
});
await new Promise<void>((resolve) => apple.listen(0, '127.0.0.1', resolve));
const appleJwks = `http://127.0.0.1:${(apple.address() as { port: number }).port}/auth/keys`;
after(() => {
  apple.closeAllConnections();
  apple.close();
});

let clockNow = () => Date.now();
function appleIdToken(claims: Record<string, unknown>, audience = 'com.example.app') {
  const now = Math.floor(clockNow() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'apple-test-key' })
    .setIssuer('https://appleid.apple.com')
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(appleKeys.privateKey);
}

describeWithServer(
  'OAuth edges: flow expiry, provider errors, cross-domain handoff, native Apple, configuration rules',
  (get) => {
    let projectId: string;
    let project: Awaited<ReturnType<typeof createProject>>;
    let admin: Caller;

    before(async () => {
      const server = get();
      project = await createProject(server, {
        oauth_providers: [
          { id: 'github', type: 'shared' },
          {
            id: 'apple',
            type: 'standard',
            client_id: 'com.example.web',
            client_secret: 'apple-secret-jwt',
            apple_bundle_ids: ['com.example.app'],
          },
        ],
      });
      projectId = project.projectId;
      const keys = await createProjectKeys(server, project.admin);
      admin = { projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey };
    });

    /** Starts a flow with the development provider and returns its page URL. */
    async function start(server: TestServer, flow: AppFlow): Promise<URL> {
      const res = await fetch(authorizeUrl(server, 'github', projectId, flow, { stack_response_mode: 'json' }));
      const body = (await res.json()) as { location: string };
      assert.equal(res.status, 200, JSON.stringify(body));
      return new URL(body.location);
    }

    /** Picks an identity on the development provider's page; returns the Gatehouse callback URL. */
    async function pick(page: URL, email: string): Promise<string> {
      const form = new URLSearchParams(page.searchParams);
      form.set('email', email);
      const res = await fetch(new URL(page.pathname, page), { method: 'POST', body: form, redirect: 'manual' });
      assert.equal(res.status, 303, await res.text());
      return res.headers.get('location')!;
    }

    it('signs in through the built-in development provider (type shared) with the picked identity', async () => {
      const server = get();
      const flow = newAppFlow();
      const page = await start(server, flow);
      assert.equal(page.pathname, '/api/v1/auth/oauth/dev-provider/authorize');
      const html = await (await fetch(page)).text();
      assert.match(html, /Continue as Ada Lovelace/);
      const back = await followCallback(await pick(page, 'dev-one@example.com'));
      const tokens = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      const me = await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: tokens.body.access_token });
      assert.equal(me.body.primary_email, 'dev-one@example.com');
      assert.equal(me.body.oauth_providers[0].id, 'github');
      const shared = await api(
        server,
        'POST',
        '/connected-accounts/me/github/access-token',
        { projectId, accessType: 'client', accessToken: tokens.body.access_token },
        {},
      );
      assertKnownError(shared, 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS', 400);
    });

    it('answers OUTER_OAUTH_TIMEOUT for an unknown state, and sends a flow older than 10 minutes to the error redirect', async () => {
      const server = get();
      const unknown = await fetch(`${server.url}/api/v1/auth/oauth/callback/github?state=nope&code=x`, { redirect: 'manual' });
      assert.equal(unknown.status, 408);
      assert.equal(((await unknown.json()) as { code: string }).code, 'OUTER_OAUTH_TIMEOUT');
      const page = await start(server, newAppFlow());
      server.clock.advance(11 * 60 * 1000);
      const back = await followCallback(await pick(page, 'late@example.com'));
      assert.equal(`${back.origin}${back.pathname}`, APP_ERROR_URL);
      assert.equal(back.searchParams.get('errorCode'), 'OUTER_OAUTH_TIMEOUT');
    });

    it('sends a provider refusal (error=access_denied) to the error redirect, and the state cannot be used again', async () => {
      const server = get();
      const page = await start(server, newAppFlow());
      const state = page.searchParams.get('state')!;
      const denied = await followCallback(`${server.url}/api/v1/auth/oauth/callback/github?error=access_denied&state=${state}`);
      assert.equal(denied.searchParams.get('errorCode'), 'OAUTH_PROVIDER_ACCESS_DENIED');
      const again = await fetch(`${server.url}/api/v1/auth/oauth/callback/github?code=x&state=${state}`, { redirect: 'manual' });
      assert.equal(((await again.json()) as { code: string }).code, 'OUTER_OAUTH_TIMEOUT');
    });

    it('refuses an authorization code older than 5 minutes', async () => {
      const server = get();
      const flow = newAppFlow();
      const back = await followCallback(await pick(await start(server, flow), 'slow@example.com'));
      server.clock.advance(5 * 60 * 1000 + 1000);
      const res = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
      assert.equal(res.body.code, 'INVALID_AUTHORIZATION_CODE');
    });

    it('hands a session to another trusted domain with a one-time PKCE code (cross-domain authorize)', async () => {
      const server = get();
      const flow = newAppFlow();
      const signIn = await exchangeCode(
        server,
        projectId,
        (await followCallback(await pick(await start(server, flow), 'handoff@example.com'))).searchParams.get('code')!,
        flow.verifier,
      );
      const caller = {
        projectId,
        accessType: 'client' as const,
        accessToken: signIn.body.access_token,
        refreshToken: signIn.body.refresh_token,
      };
      const verifier = randomBytes(32).toString('base64url');
      const body = {
        redirect_uri: 'http://localhost:4000/auth/callback',
        state: 'handoff-state',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      };
      const res = await api(server, 'POST', '/auth/oauth/cross-domain/authorize', caller, body);
      assert.equal(res.status, 200, res.text);
      const target = new URL(res.body.redirect_url);
      assert.equal(target.searchParams.get('state'), 'handoff-state');
      const tokens = await exchangeCode(
        server,
        projectId,
        target.searchParams.get('code')!,
        verifier,
        'http://localhost:4000/auth/callback',
      );
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      assert.equal(tokens.body.user_id, signIn.body.user_id);
      assert.equal(tokens.body.is_new_user, false);
      const untrusted = await api(server, 'POST', '/auth/oauth/cross-domain/authorize', caller, {
        ...body,
        redirect_uri: 'https://evil.example.com/cb',
      });
      assertKnownError(untrusted, 'REDIRECT_URL_NOT_WHITELISTED', 400);
      const wrongSession = await api(
        server,
        'POST',
        '/auth/oauth/cross-domain/authorize',
        { ...caller, refreshToken: 'not-the-session' },
        body,
      );
      assert.equal(wrongSession.status, 401);
    });

    it('signs in with a native Apple identity token addressed to a configured Bundle ID, again as the same user', async () => {
      const server = get();
      clockNow = () => server.clock.now();
      const client = { projectId, accessType: 'client' as const };
      const first = await api(server, 'POST', '/auth/oauth/callback/apple/native', client, {
        id_token: await appleIdToken({ sub: '001234.apple.user', email: 'Native@Example.com', email_verified: 'true' }),
      });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.is_new_user, true);
      const second = await api(server, 'POST', '/auth/oauth/callback/apple/native', client, {
        id_token: await appleIdToken({ sub: '001234.apple.user' }),
      });
      assert.equal(second.body.user_id, first.body.user_id);
      assert.equal(second.body.is_new_user, false);
      const me = await api(server, 'GET', '/users/me', { ...client, accessToken: first.body.access_token });
      assert.equal(me.body.primary_email, 'native@example.com');
      assert.equal(me.body.primary_email_verified, true);
      const otherApp = await api(server, 'POST', '/auth/oauth/callback/apple/native', client, {
        id_token: await appleIdToken({ sub: 'x' }, 'com.attacker.app'),
      });
      assertKnownError(otherApp, 'INVALID_APPLE_CREDENTIALS', 400);
      const forged = await api(server, 'POST', '/auth/oauth/callback/apple/native', client, {
        id_token: `${(await appleIdToken({ sub: 'x' })).slice(0, -4)}AAAA`,
      });
      assertKnownError(forged, 'INVALID_APPLE_CREDENTIALS', 400);
    });

    it('links provider accounts given to POST /users, so an imported user signs in through the provider', async () => {
      const server = get();
      const link = { id: 'github', account_id: devIdentityFor('imported@example.com').sub, email: 'imported@example.com' };
      const created = await api(server, 'POST', '/users', admin, { display_name: 'Imported', oauth_providers: [link] });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body.oauth_providers, [link]);
      // GET /users/me reads whether a user has links together with the user: with and without.
      const me = async (userId: string) => {
        const session = await api(server, 'POST', '/auth/sessions', admin, { user_id: userId });
        assert.equal(session.status, 200, session.text);
        return (await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: session.body.access_token })).body;
      };
      assert.deepEqual((await me(created.body.id)).oauth_providers, [link]);
      const plain = await api(server, 'POST', '/users', admin, { display_name: 'No links' });
      assert.deepEqual((await me(plain.body.id)).oauth_providers, []);
      const flow = newAppFlow();
      const tokens = await exchangeCode(
        server,
        projectId,
        (await followCallback(await pick(await start(server, flow), 'imported@example.com'))).searchParams.get('code')!,
        flow.verifier,
      );
      assert.equal(tokens.body.user_id, created.body.id);
      assert.equal(tokens.body.is_new_user, false);
      assertKnownError(
        await api(server, 'POST', '/users', admin, { oauth_providers: [link] }),
        'OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN',
        400,
      );
      assert.equal((await api(server, 'POST', '/users', admin, { oauth_providers: [{ id: 'gitlab', account_id: '1' }] })).status, 400);
    });

    it('keeps the dashboard (internal project) closed to strangers signing up through OAuth', async () => {
      const server = get();
      const set = await api(server, 'PATCH', '/internal/projects/current', internal.admin, {
        config: { oauth_providers: [{ id: 'github', type: 'shared' }] },
      });
      assert.equal(set.status, 200, set.text);
      const res = await fetch(
        authorizeUrl(server, 'github', 'internal', newAppFlow(), {
          stack_response_mode: 'json',
          client_secret: INTERNAL_KEYS.publishableClientKey,
        }),
      );
      const body = (await res.json()) as { location: string };
      assert.equal(res.status, 200, JSON.stringify(body));
      const back = await followCallback(await pick(new URL(body.location), 'stranger@example.com'));
      assert.equal(back.searchParams.get('errorCode'), 'SIGN_UP_NOT_ENABLED');
      await api(server, 'PATCH', '/internal/projects/current', internal.admin, { config: { oauth_providers: [] } });
    });

    it('checks provider configuration: generic ids and issuers, and no shared (development) provider in production mode', async () => {
      const server = get();
      const put = (oauth_providers: unknown[]) =>
        api(server, 'PATCH', '/internal/projects/current', admin, { config: { oauth_providers } });
      assertKnownError(
        await put([{ id: 'Okta!', type: 'standard', client_id: 'a', client_secret: 'b', issuer_url: 'https://okta.example.com' }]),
        'SCHEMA_ERROR',
        400,
      );
      assertKnownError(await put([{ id: 'okta', type: 'standard', client_id: 'a', client_secret: 'b' }]), 'SCHEMA_ERROR', 400);
      assertKnownError(
        await put([{ id: 'github', type: 'standard', client_id: 'a', client_secret: 'b', issuer_url: 'https://github.com' }]),
        'SCHEMA_ERROR',
        400,
      );
      const production = await api(server, 'PATCH', '/internal/projects/current', admin, {
        is_production_mode: true,
        config: { allow_localhost: false },
      });
      assertKnownError(production, 'SCHEMA_ERROR', 400);
      assert.match(production.body.error, /github uses shared keys/);
    });
  },
  { oauthEndpointOverrides: { apple: { jwksUri: appleJwks } } },
);
