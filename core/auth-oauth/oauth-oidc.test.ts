import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../test/helpers/oidc-provider.ts';
import { APP_REDIRECT_URI, authorizeUrl, exchangeCode, followCallback, newAppFlow, type AppFlow } from '../../test/helpers/oauth-flow.ts';
import type { TestServer } from '../../test/helpers/server.ts';

describeWithServer('OAuth sign-in through a real OpenID provider (oidc-provider on loopback)', (get) => {
  let idp: TestOidcProvider;
  let projectId: string;
  let project: Awaited<ReturnType<typeof createProject>>;

  before(async () => {
    const server = get();
    idp = await startOidcProvider([`${server.url}/api/v1/auth/oauth/callback/acme`]);
    project = await createProject(server, {
      oauth_providers: [{ id: 'acme', type: 'standard', client_id: idp.clientId, client_secret: idp.clientSecret, issuer_url: idp.issuer, display_name: 'Acme SSO' }],
    });
    projectId = project.projectId;
  });
  after(async () => { await idp?.close(); });

  /** authorize → provider login and consent → callback → app redirect; returns the app redirect. */
  async function runFlow(server: TestServer, login: string, flow: AppFlow, extra: Record<string, string> = {}): Promise<URL> {
    const start = await fetch(authorizeUrl(server, 'acme', projectId, flow, { stack_response_mode: 'json', ...extra }));
    const startBody = await start.json() as { location: string };
    assert.equal(start.status, 200, JSON.stringify(startBody));
    assert.ok(startBody.location.startsWith(`${idp.issuer}/`), startBody.location);
    const callback = await signInAtProvider(new CookieJar(), startBody.location, login, `${server.url}/api/v1/auth/oauth/callback/`);
    return followCallback(callback);
  }

  it('signs up a new user the way the SDK does: the app gets a code with its own state, and the token exchange returns tokens with is_new_user', async () => {
    const server = get();
    const flow = newAppFlow();
    const back = await runFlow(server, 'alice', flow);
    assert.equal(`${back.origin}${back.pathname}`, APP_REDIRECT_URI);
    assert.equal(back.searchParams.get('state'), flow.state);
    const code = back.searchParams.get('code')!;
    assert.ok(code.length >= 40);
    const tokens = await exchangeCode(server, projectId, code, flow.verifier);
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    assert.equal(tokens.body.is_new_user, true);
    assert.equal(tokens.body.token_type, 'Bearer');
    assert.ok(tokens.body.refresh_token);
    const me = await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: tokens.body.access_token });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.primary_email, 'alice@example.test');
    assert.equal(me.body.primary_email_verified, true);
    assert.equal(me.body.display_name, 'User alice');
  });

  it('signs the same identity in again as the same user, with is_new_user false', async () => {
    const server = get();
    const first = newAppFlow();
    const a = await exchangeCode(server, projectId, (await runFlow(server, 'bob', first)).searchParams.get('code')!, first.verifier);
    const second = newAppFlow();
    const b = await exchangeCode(server, projectId, (await runFlow(server, 'bob', second)).searchParams.get('code')!, second.verifier);
    assert.equal(a.body.is_new_user, true);
    assert.equal(b.body.is_new_user, false);
    assert.equal(b.body.user_id, a.body.user_id);
  });

  it('refuses a second use of an authorization code with INVALID_AUTHORIZATION_CODE', async () => {
    const server = get();
    const flow = newAppFlow();
    const code = (await runFlow(server, 'carol', flow)).searchParams.get('code')!;
    assert.equal((await exchangeCode(server, projectId, code, flow.verifier)).status, 200);
    const again = await exchangeCode(server, projectId, code, flow.verifier);
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'INVALID_AUTHORIZATION_CODE');
    assert.equal(again.headers.get('x-stack-known-error'), 'INVALID_AUTHORIZATION_CODE');
  });

  it('refuses a wrong PKCE verifier, and the code is spent by that attempt', async () => {
    const server = get();
    const flow = newAppFlow();
    const code = (await runFlow(server, 'dave', flow)).searchParams.get('code')!;
    const wrong = await exchangeCode(server, projectId, code, `${flow.verifier}x`);
    assert.equal(wrong.body.code, 'INVALID_AUTHORIZATION_CODE');
    const right = await exchangeCode(server, projectId, code, flow.verifier);
    assert.equal(right.body.code, 'INVALID_AUTHORIZATION_CODE');
  });

  it('refuses a code redeemed with another redirect_uri', async () => {
    const server = get();
    const flow = newAppFlow();
    const code = (await runFlow(server, 'erin', flow)).searchParams.get('code')!;
    const res = await exchangeCode(server, projectId, code, flow.verifier, 'http://localhost:3000/elsewhere');
    assert.equal(res.body.code, 'INVALID_AUTHORIZATION_CODE');
  });

  it('refuses an untrusted redirect_uri or error_redirect_url with REDIRECT_URL_NOT_WHITELISTED before sending anyone to the provider', async () => {
    const server = get();
    for (const extra of [{}, { error_redirect_url: 'https://evil.example.com/error' }] as Record<string, string>[]) {
      const flow = extra.error_redirect_url ? newAppFlow() : newAppFlow('https://evil.example.com/callback');
      const res = await fetch(authorizeUrl(server, 'acme', projectId, flow, extra), { redirect: 'manual' });
      const body = await res.json() as { code: string };
      assert.equal(res.status, 400);
      assert.equal(body.code, 'REDIRECT_URL_NOT_WHITELISTED');
      assert.equal(res.headers.get('location'), null);
    }
  });

  it('answers a 307 to the provider without stack_response_mode=json, and OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED for an unknown provider', async () => {
    const server = get();
    const res = await fetch(authorizeUrl(server, 'acme', projectId, newAppFlow()), { redirect: 'manual' });
    assert.equal(res.status, 307);
    const location = new URL(res.headers.get('location')!);
    assert.equal(location.origin, idp.issuer);
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(location.searchParams.get('nonce'));
    assert.equal(location.searchParams.get('redirect_uri'), `${server.url}/api/v1/auth/oauth/callback/acme`);
    const unknown = await fetch(authorizeUrl(server, 'github', projectId, newAppFlow()), { redirect: 'manual' });
    assert.equal((await unknown.json() as { code: string }).code, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
  });

  it('links the provider account to a signed-in password user (type=link), who can then sign in through the provider', async () => {
    const server = get();
    const signUp = await api(server, 'POST', '/auth/password/sign-up', project.client, { email: 'frank@example.org', password: 'correct horse battery' });
    assert.equal(signUp.status, 200, signUp.text);
    const flow = newAppFlow();
    const back = await runFlow(server, 'frank-at-acme', flow, { type: 'link', token: signUp.body.access_token });
    const linked = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    assert.equal(linked.body.user_id, signUp.body.user_id);
    assert.equal(linked.body.is_new_user, false);
    const again = newAppFlow();
    const signIn = await exchangeCode(server, projectId, (await runFlow(server, 'frank-at-acme', again)).searchParams.get('code')!, again.verifier);
    assert.equal(signIn.body.user_id, signUp.body.user_id);
  });

  it('refuses type=link without an access token with USER_AUTHENTICATION_REQUIRED', async () => {
    const server = get();
    const res = await fetch(authorizeUrl(server, 'acme', projectId, newAppFlow(), { type: 'link' }), { redirect: 'manual' });
    assertKnownError({ status: res.status, headers: res.headers, body: await res.json(), text: '' }, 'USER_AUTHENTICATION_REQUIRED', 401);
  });
});
