import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, type Caller } from '../helpers/api.ts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { APP_REDIRECT_URI, authorizeUrl, exchangeCode, followCallback, newAppFlow, type AppFlow } from '../helpers/oauth-flow.ts';
import type { TestServer } from '../helpers/server.ts';

describeWithServer('OAuth sign-in through a real OpenID provider (oidc-provider on loopback)', (get) => {
  let idp: TestOidcProvider;
  let projectId: string;
  let project: Awaited<ReturnType<typeof createProject>>;
  // Key-based callers: the tests move the server clock, which would expire an owner's admin access token.
  let serverCaller: Caller;
  let adminCaller: Caller;

  before(async () => {
    const server = get();
    idp = await startOidcProvider([`${server.url}/api/v1/auth/oauth/callback/acme`]);
    project = await createProject(server, {
      oauth_providers: [
        {
          id: 'acme',
          type: 'standard',
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          issuer_url: idp.issuer,
          display_name: 'Acme SSO',
        },
      ],
    });
    projectId = project.projectId;
    const keys = await createProjectKeys(server, project.admin);
    serverCaller = { projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
    adminCaller = { projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey };
  });
  after(async () => {
    await idp?.close();
  });

  /** authorize → provider login and consent → callback → app redirect; returns the app redirect. */
  async function runFlow(server: TestServer, login: string, flow: AppFlow, extra: Record<string, string> = {}): Promise<URL> {
    const start = await fetch(authorizeUrl(server, 'acme', projectId, flow, { stack_response_mode: 'json', ...extra }));
    const startBody = (await start.json()) as { location: string };
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
      const body = (await res.json()) as { code: string };
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
    assert.equal(((await unknown.json()) as { code: string }).code, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
  });

  it('links the provider account to a signed-in password user (type=link), who can then sign in through the provider', async () => {
    const server = get();
    const signUp = await api(server, 'POST', '/auth/password/sign-up', project.client, {
      email: 'frank@example.org',
      password: 'correct horse battery',
    });
    assert.equal(signUp.status, 200, signUp.text);
    const flow = newAppFlow();
    const back = await runFlow(server, 'frank-at-acme', flow, { type: 'link', token: signUp.body.access_token });
    const linked = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    assert.equal(linked.body.user_id, signUp.body.user_id);
    assert.equal(linked.body.is_new_user, false);
    const again = newAppFlow();
    const signIn = await exchangeCode(
      server,
      projectId,
      (await runFlow(server, 'frank-at-acme', again)).searchParams.get('code')!,
      again.verifier,
    );
    assert.equal(signIn.body.user_id, signUp.body.user_id);
  });

  it('refuses type=link without an access token with USER_AUTHENTICATION_REQUIRED', async () => {
    const server = get();
    const res = await fetch(authorizeUrl(server, 'acme', projectId, newAppFlow(), { type: 'link' }), { redirect: 'manual' });
    assertKnownError({ status: res.status, headers: res.headers, body: await res.json(), text: '' }, 'USER_AUTHENTICATION_REQUIRED', 401);
  });

  it("fills the user object's oauth_providers and lists, updates and deletes the link through /oauth-providers", async () => {
    const server = get();
    const flow = newAppFlow();
    const tokens = await exchangeCode(server, projectId, (await runFlow(server, 'henry', flow)).searchParams.get('code')!, flow.verifier);
    const me = { projectId, accessType: 'client' as const, accessToken: tokens.body.access_token };
    const user = await api(server, 'GET', '/users/me', me);
    assert.deepEqual(user.body.oauth_providers, [{ id: 'acme', account_id: 'henry', email: 'henry@example.test' }]);
    const list = await api(server, 'GET', '/oauth-providers?user_id=me', me);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.items.length, 1);
    const link = list.body.items[0];
    assert.equal(link.provider_config_id, 'acme');
    assert.equal(link.type, 'standard');
    assert.equal(link.allow_sign_in, true);
    assert.equal(link.account_id, undefined, 'clients do not see the provider account id');
    const asServer = await api(server, 'GET', `/oauth-providers/${tokens.body.user_id}/${link.id}`, serverCaller);
    assert.equal(asServer.body.account_id, 'henry');
    const other = await api(server, 'GET', `/oauth-providers?user_id=${tokens.body.user_id}`, {
      projectId,
      accessType: 'client',
      accessToken: (
        await exchangeCode(
          server,
          projectId,
          (await runFlow(server, 'ivy', ((flow.state = 'x'.repeat(22)), flow))).searchParams.get('code')!,
          flow.verifier,
        )
      ).body.access_token,
    });
    assert.equal(other.status, 403);

    const off = await api(server, 'PATCH', `/oauth-providers/me/${link.id}`, me, { allow_sign_in: false });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.allow_sign_in, false);
    const refused = newAppFlow();
    const back = await runFlow(server, 'henry', refused);
    assert.equal(`${back.origin}${back.pathname}`, 'http://localhost:3000/handler/error');
    assert.equal(back.searchParams.get('errorCode'), 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');

    const removed = await api(server, 'DELETE', `/oauth-providers/me/${link.id}`, me);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual((await api(server, 'GET', '/users/me', me)).body.oauth_providers, []);
    assert.equal((await api(server, 'GET', `/oauth-providers/me/${link.id}`, me)).status, 404);
  });

  it('returns a connected-account access token, refreshes it at the provider once expired, and refuses a scope that was not granted', async () => {
    const server = get();
    const flow = newAppFlow();
    const tokens = await exchangeCode(server, projectId, (await runFlow(server, 'jack', flow)).searchParams.get('code')!, flow.verifier);
    const me = { projectId, accessType: 'client' as const, accessToken: tokens.body.access_token };
    const first = await api(server, 'POST', '/connected-accounts/me/acme/access-token', me, {});
    assert.equal(first.status, 201, first.text);
    assert.ok(first.body.access_token);
    const userinfo = await fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${first.body.access_token}` } });
    assert.equal(((await userinfo.json()) as { sub: string }).sub, 'jack', "the token is the provider's own access token");
    const variant = await api(server, 'POST', '/auth/oauth/connected-accounts/acme/access-token', me, { scope: 'email' });
    assert.equal(variant.body.access_token, first.body.access_token);

    const refreshesBefore = idp.tokenRequests.filter((g) => g === 'refresh_token').length;
    server.clock.advance(2 * 60 * 60 * 1000);
    const later = await api(server, 'POST', `/connected-accounts/${tokens.body.user_id}/acme/access-token`, serverCaller, {});
    assert.equal(later.status, 201, later.text);
    assert.notEqual(later.body.access_token, first.body.access_token);
    assert.equal(idp.tokenRequests.filter((g) => g === 'refresh_token').length, refreshesBefore + 1);

    const missing = await api(server, 'POST', `/connected-accounts/${tokens.body.user_id}/acme/access-token`, serverCaller, {
      scope: 'extra:read',
    });
    assertKnownError(missing, 'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE', 400);
    const notLinked = await api(server, 'POST', `/connected-accounts/${tokens.body.user_id}/github/access-token`, serverCaller, {});
    assertKnownError(notLinked, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', 400);
  });

  it('keeps provider refresh tokens encrypted at rest', async () => {
    const server = get();
    const rows = await server.gatehouse.core.runtime.db
      .selectFrom('oauth_tokens')
      .select(['sealed_token', 'kind'])
      .where('project_id', '=', projectId)
      .execute();
    assert.ok(rows.some((r) => r.kind === 'refresh'));
    for (const row of rows) assert.match(row.sealed_token, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('asks a user with TOTP for the second factor instead of issuing tokens at the token exchange', async () => {
    const server = get();
    const flow = newAppFlow();
    const tokens = await exchangeCode(server, projectId, (await runFlow(server, 'kate', flow)).searchParams.get('code')!, flow.verifier);
    const totp = await api(server, 'PATCH', `/users/${tokens.body.user_id}`, serverCaller, {
      totp_secret_base64: Buffer.from('12345678901234567890').toString('base64'),
    });
    assert.equal(totp.status, 200, totp.text);
    const again = newAppFlow();
    const res = await exchangeCode(server, projectId, (await runFlow(server, 'kate', again)).searchParams.get('code')!, again.verifier);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    assert.ok(res.body.details.attempt_code);
    assert.equal(res.body.access_token, undefined);
  });

  it("applies the merge strategy when the provider's verified email belongs to an existing user", async () => {
    const server = get();
    const existing = await api(server, 'POST', '/users', serverCaller, {
      primary_email: 'liam@example.test',
      primary_email_verified: true,
    });
    assert.equal(existing.status, 201, existing.text);
    const setStrategy = async (strategy: string) => {
      const res = await api(server, 'PATCH', '/internal/projects/current', adminCaller, {
        config: { oauth_account_merge_strategy: strategy },
      });
      assert.equal(res.status, 200, res.text);
    };

    await setStrategy('raise_error');
    const raised = await runFlow(server, 'liam', newAppFlow());
    assert.equal(raised.searchParams.get('errorCode'), 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');

    await setStrategy('allow_duplicates');
    const dupFlow = newAppFlow();
    const dup = await exchangeCode(server, projectId, (await runFlow(server, 'liam', dupFlow)).searchParams.get('code')!, dupFlow.verifier);
    assert.equal(dup.body.is_new_user, true);
    assert.notEqual(dup.body.user_id, existing.body.id);
    const dupUser = await api(server, 'GET', `/users/${dup.body.user_id}`, serverCaller);
    assert.equal(dupUser.body.primary_email, 'liam@example.test');
    assert.equal(dupUser.body.primary_email_auth_enabled, false);

    await setStrategy('link_method');
    const existing2 = await api(server, 'POST', '/users', serverCaller, {
      primary_email: 'mia@example.test',
      primary_email_verified: true,
    });
    const linkFlow = newAppFlow();
    const linked = await exchangeCode(
      server,
      projectId,
      (await runFlow(server, 'mia', linkFlow)).searchParams.get('code')!,
      linkFlow.verifier,
    );
    assert.equal(linked.body.user_id, existing2.body.id);
    assert.equal(linked.body.is_new_user, false);
  });

  it('refuses to sign up a new user through the provider when sign-up is disabled', async () => {
    const server = get();
    const res = await api(server, 'PATCH', '/internal/projects/current', adminCaller, { config: { sign_up_enabled: false } });
    assert.equal(res.status, 200, res.text);
    const back = await runFlow(server, 'nora', newAppFlow());
    assert.equal(back.searchParams.get('errorCode'), 'SIGN_UP_NOT_ENABLED');
    await api(server, 'PATCH', '/internal/projects/current', adminCaller, { config: { sign_up_enabled: true } });
  });
});
