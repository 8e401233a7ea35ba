import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts';
import { api, assertKnownError, createProject, type Caller } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { patchConfigOverride } from '../helpers/config.ts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { APP_ERROR_URL, authorizeUrl, followCallback, newAppFlow } from '../helpers/oauth-flow.ts';

for (const dialect of testDialects()) {
  describe(`verified team domains and enforced SSO [${dialect}]`, () => {
    let server: TestServer;
    let dns: TestDnsServer;
    let idp: TestOidcProvider;
    let p: Awaited<ReturnType<typeof createProject>>;
    let teamId: string;

    before(async () => {
      dns = await startDnsServer();
      server = await startTestServer(dialect, { dnsServers: [dns.address] });
      idp = await startOidcProvider([`${server.url}/api/v1/auth/oauth/callback/acme`]);
      p = await createProject(server, {
        sign_up_enabled: true,
        magic_link_enabled: true,
        oauth_providers: [
          { id: 'acme', type: 'standard', client_id: idp.clientId, client_secret: idp.clientSecret, issuer_url: idp.issuer },
        ],
      });
      const team = await api(server, 'POST', '/teams', p.server, { display_name: 'Acme' });
      assert.equal(team.status, 201, team.text);
      teamId = team.body.id;
    });
    after(async () => {
      await server?.close();
      await dns?.close();
      await idp?.close();
    });

    const claim = async (team: string, domain: string) => {
      const res = await api(server, 'POST', `/teams/${team}/domains`, p.server, { domain });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };

    it('answers a DNS TXT challenge for a claimed domain, normalized', async () => {
      const body = await claim(teamId, 'Acme.TEST.');
      assert.equal(body.domain, 'acme.test');
      assert.equal(body.verified, false);
      assert.equal(body.sso_enforced, false);
      assert.equal(body.challenge.type, 'TXT');
      assert.equal(body.challenge.name, '_gatehouse-challenge.acme.test');
      assert.match(body.challenge.value, /^gatehouse-domain-verification=.{20,}$/);
      assertKnownError(
        await api(server, 'POST', `/teams/${teamId}/domains`, p.server, { domain: 'acme.test' }),
        'TEAM_DOMAIN_ALREADY_EXISTS',
        409,
      );
    });

    it('refuses a malformed domain with SCHEMA_ERROR', async () => {
      for (const domain of ['localhost', '1.2.3.4', 'a..b', `${'a'.repeat(64)}.test`, 'x'.repeat(300)]) {
        assertKnownError(await api(server, 'POST', `/teams/${teamId}/domains`, p.server, { domain }), 'SCHEMA_ERROR', 400);
      }
    });

    it('keeps a domain unverified while the TXT record is missing or wrong', async () => {
      const missing = await api(server, 'POST', `/teams/${teamId}/domains/acme.test/verify`, p.server);
      assertKnownError(missing, 'TEAM_DOMAIN_VERIFICATION_FAILED', 400);
      assert.equal(missing.body.details.reason, 'no_record');
      dns.records.set('_gatehouse-challenge.acme.test', ['gatehouse-domain-verification=wrong', 'v=spf1 -all']);
      const wrong = await api(server, 'POST', `/teams/${teamId}/domains/acme.test/verify`, p.server);
      assertKnownError(wrong, 'TEAM_DOMAIN_VERIFICATION_FAILED', 400);
      assert.equal(wrong.body.details.reason, 'wrong_value');
      const list = await api(server, 'GET', `/teams/${teamId}/domains`, p.server);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.items[0].verified, false);
    });

    it('verifies a domain once the TXT record holds the challenge value', async () => {
      const list = await api(server, 'GET', `/teams/${teamId}/domains`, p.server);
      dns.records.set('_gatehouse-challenge.acme.test', ['v=spf1 -all', list.body.items[0].challenge.value]);
      const res = await api(server, 'POST', `/teams/${teamId}/domains/acme.test/verify`, p.server);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.verified, true);
      assert.equal(typeof res.body.verified_at_millis, 'number');
    });

    it('lets one team of a project at a time hold a domain verified', async () => {
      const other = await api(server, 'POST', '/teams', p.server, { display_name: 'Rival' });
      const body = await claim(other.body.id, 'acme.test');
      dns.records.set('_gatehouse-challenge.acme.test', [
        ...(dns.records.get('_gatehouse-challenge.acme.test') ?? []),
        body.challenge.value,
      ]);
      assertKnownError(
        await api(server, 'POST', `/teams/${other.body.id}/domains/acme.test/verify`, p.server),
        'TEAM_DOMAIN_VERIFIED_BY_ANOTHER_TEAM',
        409,
      );
    });

    it('lets a member manage domains only with $manage_sso', async () => {
      const member = await projectUser(server, p);
      assert.equal((await api(server, 'POST', `/team-memberships/${teamId}/${member.id}`, p.server, {})).status, 201);
      assertKnownError(await api(server, 'GET', `/teams/${teamId}/domains`, member.client), 'TEAM_PERMISSION_REQUIRED', 401);
      const grant = await api(server, 'POST', `/team-permissions/${teamId}/${member.id}/$manage_sso`, p.server, {});
      assert.equal(grant.status, 201, grant.text);
      const list = await api(server, 'GET', `/teams/${teamId}/domains`, member.client);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.items.length, 1);
    });

    it('refuses password sign-up, password sign-in and OTP for an enforced domain with SSO_REQUIRED and the SSO URL', async () => {
      const client: Caller = p.client;
      // Before enforcement: an address of the domain signs up with a password.
      const early = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: 'early@acme.test',
        password: 'correct horse battery',
      });
      assert.equal(early.status, 200, early.text);

      const flag = await api(server, 'PATCH', `/teams/${teamId}/domains/acme.test`, p.server, { sso_enforced: true });
      assert.equal(flag.status, 200, flag.text);
      assert.equal(flag.body.sso_enforced, true);
      // The per-domain flag alone does not enforce: the project option must be on too.
      const stillOpen = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: 'second@acme.test',
        password: 'correct horse battery',
      });
      assert.equal(stillOpen.status, 200, stillOpen.text);

      const config = await patchConfigOverride(server, p.admin, 'branch', { 'auth.sso.enforceForVerifiedDomains': true });
      assert.equal(config.status, 200, config.text);

      const signUp = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: 'Bob@Acme.test',
        password: 'correct horse battery',
      });
      assertKnownError(signUp, 'SSO_REQUIRED', 403);
      assert.equal(signUp.body.details.sso_url, `${server.url}/api/v1/auth/sso/authorize?email=bob%40acme.test`);
      assert.equal(signUp.body.details.domain, 'acme.test');

      const signIn = await api(server, 'POST', '/auth/password/sign-in', client, {
        email: 'early@acme.test',
        password: 'correct horse battery',
      });
      assertKnownError(signIn, 'SSO_REQUIRED', 403);
      const otp = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, {
        email: 'early@acme.test',
        callback_url: 'http://localhost:3000/handler/magic-link-callback',
      });
      assertKnownError(otp, 'SSO_REQUIRED', 403);

      // Other domains are untouched.
      const elsewhere = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: 'carol@example.org',
        password: 'correct horse battery',
      });
      assert.equal(elsewhere.status, 200, elsewhere.text);
    });

    it("refuses OAuth sign-up for an enforced domain: the callback sends SSO_REQUIRED to the app's error URL", async () => {
      // The test provider's accounts are <login>@example.test.
      const body = await claim(teamId, 'example.test');
      dns.records.set('_gatehouse-challenge.example.test', [body.challenge.value]);
      assert.equal((await api(server, 'POST', `/teams/${teamId}/domains/example.test/verify`, p.server)).status, 200);
      assert.equal((await api(server, 'PATCH', `/teams/${teamId}/domains/example.test`, p.server, { sso_enforced: true })).status, 200);
      const flow = newAppFlow();
      const start = await fetch(authorizeUrl(server, 'acme', p.projectId, flow), { redirect: 'manual' });
      assert.equal(start.status, 307, await start.text());
      const callback = await signInAtProvider(
        new CookieJar(),
        start.headers.get('location')!,
        'eve',
        `${server.url}/api/v1/auth/oauth/callback/`,
      );
      const back = await followCallback(callback);
      assert.equal(`${back.origin}${back.pathname}`, APP_ERROR_URL);
      assert.equal(back.searchParams.get('errorCode'), 'SSO_REQUIRED');
      assert.equal(
        JSON.parse(back.searchParams.get('details')!).sso_url,
        `${server.url}/api/v1/auth/sso/authorize?email=eve%40example.test`,
      );
    });

    it('stops enforcing once the team deletes the domain', async () => {
      const res = await api(server, 'DELETE', `/teams/${teamId}/domains/acme.test`, p.server);
      assert.equal(res.status, 200, res.text);
      assertKnownError(await api(server, 'DELETE', `/teams/${teamId}/domains/acme.test`, p.server), 'TEAM_DOMAIN_NOT_FOUND', 404);
      const signUp = await api(server, 'POST', '/auth/password/sign-up', p.client, {
        email: 'dave@acme.test',
        password: 'correct horse battery',
      });
      assert.equal(signUp.status, 200, signUp.text);
    });
  });
}
