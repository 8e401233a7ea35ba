import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject, createProjectKeys, type Caller } from '../helpers/api.ts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { APP_REDIRECT_URI, exchangeCode, newAppFlow } from '../helpers/oauth-flow.ts';
import { ssoAuthorizeUrl } from '../helpers/sso-flow.ts';

describeWithServer('OpenID sign-in through a team connection (oidc-provider on loopback)', (get) => {
  let idp: TestOidcProvider;
  let projectId: string;
  let serverCaller: Caller;
  let teamId: string;
  let connection: Record<string, any>;

  before(async () => {
    const server = get();
    const project = await createProject(server);
    projectId = project.projectId;
    const keys = await createProjectKeys(server, project.admin);
    serverCaller = { projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
    teamId = (await api(server, 'POST', '/teams', serverCaller, { display_name: 'Example Inc' })).body.id;
    // The connection's redirect_uri is known once it exists: register it, then restart the provider with it.
    const first = await startOidcProvider(['http://localhost/placeholder']);
    const port = Number(new URL(first.issuer).port);
    const created = await api(server, 'POST', `/teams/${teamId}/sso-connections`, serverCaller, {
      type: 'oidc',
      issuer_url: first.issuer,
      client_id: first.clientId,
      client_secret: first.clientSecret,
      default_permissions: ['team_admin'],
    }).finally(() => first.close());
    assert.equal(created.status, 201, created.text);
    connection = created.body;
    idp = await startOidcProvider([connection.redirect_uri], { port });
  });
  after(async () => {
    await idp?.close();
  });

  it('answers the redirect URI to register and no SAML fields; the client secret is never answered', async () => {
    const server = get();
    assert.equal(connection.redirect_uri, `${server.url}/api/v1/auth/sso/oidc/${connection.id}/callback`);
    assert.equal(connection.acs_url, null);
    assert.equal(connection.issuer_url, idp.issuer);
    const read = await api(server, 'GET', `/teams/${teamId}/sso-connections/${connection.id}`, serverCaller);
    assert.ok(!read.text.includes(idp.clientSecret));
  });

  it('signs a user in through the team connection (by team_id), who joins the team with the connection’s default permissions', async () => {
    const server = get();
    const flow = newAppFlow();
    const start = await fetch(ssoAuthorizeUrl(server, projectId, flow, { team_id: teamId, stack_response_mode: 'json' }));
    const { location } = (await start.json()) as { location: string };
    assert.equal(start.status, 200);
    assert.ok(location.startsWith(`${idp.issuer}/`), location);
    assert.equal(new URL(location).searchParams.get('redirect_uri'), connection.redirect_uri);
    const callback = await signInAtProvider(new CookieJar(), location, 'olivia', `${server.url}/api/v1/auth/sso/oidc/`);
    const res = await fetch(callback, { redirect: 'manual' });
    assert.equal(res.status, 303, await res.text());
    const back = new URL(res.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, APP_REDIRECT_URI);
    assert.equal(back.searchParams.get('state'), flow.state);
    const tokens = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    const me = await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: tokens.body.access_token });
    assert.equal(me.body.primary_email, 'olivia@example.test');
    assert.equal(me.body.display_name, 'User olivia');
    const perms = await api(server, 'GET', `/team-permissions?team_id=${teamId}&user_id=${me.body.id}`, serverCaller);
    assert.ok(
      perms.body.items.some((p: { id: string }) => p.id === 'team_admin'),
      JSON.stringify(perms.body),
    );
  });

  it('refuses a callback whose state is unknown with OUTER_OAUTH_TIMEOUT', async () => {
    const server = get();
    const res = await fetch(`${server.url}/api/v1/auth/sso/oidc/${connection.id}/callback?state=nope&code=x`, { redirect: 'manual' });
    assert.equal(res.status, 408);
    assert.equal(((await res.json()) as { code: string }).code, 'OUTER_OAUTH_TIMEOUT');
  });
});
