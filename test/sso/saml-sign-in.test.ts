import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject, createProjectKeys, type Caller } from '../helpers/api.ts';
import { APP_ERROR_URL, APP_REDIRECT_URI, exchangeCode, newAppFlow } from '../helpers/oauth-flow.ts';
import { startSamlIdp, type ResponseTweaks, type TestSamlIdp } from '../helpers/saml-idp.ts';
import { postAcs, ssoAuthorizeUrl } from '../helpers/sso-flow.ts';

describeWithServer('SAML sign-in through a team connection (samlify IdP on loopback)', (get) => {
  let idp: TestSamlIdp;
  let projectId: string;
  let serverCaller: Caller;
  let teamId: string;
  let connection: Record<string, any>;

  before(async () => {
    const server = get();
    idp = await startSamlIdp();
    const project = await createProject(server);
    projectId = project.projectId;
    const keys = await createProjectKeys(server, project.admin);
    serverCaller = { projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
    const team = await api(server, 'POST', '/teams', serverCaller, { display_name: 'Corp' });
    assert.equal(team.status, 201, team.text);
    teamId = team.body.id;
    const created = await api(server, 'POST', `/teams/${teamId}/sso-connections`, serverCaller, {
      type: 'saml',
      idp_metadata_xml: idp.metadataXml,
      domains: ['corp.example'],
    });
    assert.equal(created.status, 201, created.text);
    connection = created.body;
  });
  after(async () => {
    await idp?.close();
  });

  /** authorize (by email) → the IdP's answer to Gatehouse's AuthnRequest. */
  async function startAtIdp(login: string, tweaks: ResponseTweaks = {}, flow = newAppFlow()) {
    const server = get();
    const start = await fetch(ssoAuthorizeUrl(server, projectId, flow, { email: `${login}@corp.example` }), { redirect: 'manual' });
    assert.equal(start.status, 307, await start.text());
    const location = start.headers.get('location')!;
    assert.ok(location.startsWith(`${idp.ssoUrl}?`), location);
    return { flow, ...(await idp.respond(location, login, tweaks)) };
  }

  it('answers the SP details: entity id, ACS and metadata URL, and serves SP metadata the IdP can import', async () => {
    const server = get();
    assert.equal(connection.acs_url, `${server.url}/api/v1/auth/sso/saml/${connection.id}/acs`);
    assert.equal(connection.sp_metadata_url, `${server.url}/api/v1/auth/sso/saml/${connection.id}/metadata`);
    assert.equal(connection.sp_entity_id, connection.sp_metadata_url);
    assert.equal(connection.idp_entity_id, idp.entityId);
    assert.equal(connection.redirect_uri, null);
    const metadata = await fetch(connection.sp_metadata_url);
    assert.equal(metadata.status, 200);
    assert.match(metadata.headers.get('content-type') ?? '', /application\/samlmetadata\+xml/);
    const xml = await metadata.text();
    assert.match(xml, /AssertionConsumerService[^>]+HTTP-POST/);
    assert.ok(xml.includes(connection.acs_url));
    assert.match(xml, /WantAssertionsSigned="true"/);
  });

  it('signs a new user in end to end (SP-initiated): the app gets a code for /auth/oauth/token, the user joins the team', async () => {
    const server = get();
    const { flow, acsUrl, samlResponse } = await startAtIdp('alice');
    assert.equal(acsUrl, connection.acs_url);
    const back = await postAcs(acsUrl, samlResponse);
    assert.equal(back.status, 303, await back.text());
    const target = new URL(back.headers.get('location')!);
    assert.equal(`${target.origin}${target.pathname}`, APP_REDIRECT_URI);
    assert.equal(target.searchParams.get('state'), flow.state);
    const tokens = await exchangeCode(server, projectId, target.searchParams.get('code')!, flow.verifier);
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    assert.equal(tokens.body.is_new_user, true);
    const me = await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: tokens.body.access_token });
    assert.equal(me.body.primary_email, 'alice@corp.example');
    assert.equal(me.body.display_name, 'Corp alice');
    const teams = await api(server, 'GET', `/teams?user_id=${me.body.id}`, serverCaller);
    assert.deepEqual(
      teams.body.items.map((t: { id: string }) => t.id),
      [teamId],
    );
    const perms = await api(server, 'GET', `/team-permissions?team_id=${teamId}&user_id=${me.body.id}`, serverCaller);
    assert.ok(
      perms.body.items.some((p: { id: string }) => p.id === 'team_member'),
      JSON.stringify(perms.body),
    );
  });

  it('signs the same IdP account in again as the same user, and accepts an encrypted assertion', async () => {
    const server = get();
    const first = await startAtIdp('bob');
    const a = await postAcs(first.acsUrl, first.samlResponse);
    const codeA = new URL(a.headers.get('location')!).searchParams.get('code')!;
    const tokensA = await exchangeCode(server, projectId, codeA, first.flow.verifier);
    const second = await startAtIdp('bob', { encrypt: true });
    assert.ok(!Buffer.from(second.samlResponse, 'base64').toString().includes('bob@corp.example'), 'the assertion travels encrypted');
    const b = await postAcs(second.acsUrl, second.samlResponse);
    assert.equal(b.status, 303, await b.text());
    const tokensB = await exchangeCode(
      server,
      projectId,
      new URL(b.headers.get('location')!).searchParams.get('code')!,
      second.flow.verifier,
    );
    assert.equal(tokensB.body.is_new_user, false);
    assert.equal(tokensB.body.user_id, tokensA.body.user_id);
  });

  /** A refused response goes to the app's error_redirect_url with the known error and its reason. */
  async function refusedWith(response: Response, reason: string): Promise<void> {
    assert.equal(response.status, 303, await response.text());
    const target = new URL(response.headers.get('location')!);
    assert.equal(`${target.origin}${target.pathname}`, APP_ERROR_URL);
    assert.equal(target.searchParams.get('errorCode'), 'SSO_RESPONSE_INVALID');
    assert.equal(JSON.parse(target.searchParams.get('details')!).reason, reason);
  }

  it('refuses a response signed with a key that is not the IdP’s (forged signature)', async () => {
    const { acsUrl, samlResponse } = await startAtIdp('mallory', { forgeSignature: true });
    await refusedWith(await postAcs(acsUrl, samlResponse), 'signature');
  });

  it('refuses an assertion for another audience', async () => {
    const { acsUrl, samlResponse } = await startAtIdp('carol', { audience: 'https://other-sp.example/metadata' });
    await refusedWith(await postAcs(acsUrl, samlResponse), 'audience');
  });

  it('refuses an expired assertion', async () => {
    const { acsUrl, samlResponse } = await startAtIdp('dave', { validForMinutes: -10 });
    await refusedWith(await postAcs(acsUrl, samlResponse), 'expired');
  });

  it('refuses an assertion addressed to another recipient', async () => {
    const { acsUrl, samlResponse } = await startAtIdp('erin', { recipient: 'https://other-sp.example/acs' });
    await refusedWith(await postAcs(acsUrl, samlResponse), 'recipient');
  });

  it('refuses a replayed response: its request was answered already', async () => {
    const { acsUrl, samlResponse } = await startAtIdp('frank');
    assert.equal((await postAcs(acsUrl, samlResponse)).status, 303);
    const again = await postAcs(acsUrl, samlResponse);
    assert.equal(again.status, 400);
    const body = (await again.json()) as { code: string; details: { reason: string } };
    assert.equal(body.code, 'SSO_RESPONSE_INVALID');
    assert.equal(body.details.reason, 'unknown request');
  });

  it('refuses an unsolicited (IdP-initiated) response when the connection does not allow it', async () => {
    const metadata = await (await fetch(connection.sp_metadata_url)).text();
    const { acsUrl, samlResponse } = await idp.unsolicited(metadata, 'grace');
    const res = await postAcs(acsUrl, samlResponse);
    assert.equal(res.status, 400);
    const body = (await res.json()) as { code: string; details: { reason: string } };
    assert.equal(body.code, 'SSO_RESPONSE_INVALID');
    assert.equal(body.details.reason, 'unsolicited');
  });

  it('with IdP-initiated sign-in on, sends a valid unsolicited response to the app to start a sign-in, and refuses its replay by assertion id', async () => {
    const server = get();
    const created = await api(server, 'POST', `/teams/${teamId}/sso-connections`, serverCaller, {
      type: 'saml',
      idp_metadata_xml: idp.metadataXml,
      allow_idp_initiated: true,
      idp_initiated_redirect_url: 'http://localhost:3000/handler/sso-start',
    });
    assert.equal(created.status, 201, created.text);
    const metadata = await (await fetch(created.body.sp_metadata_url)).text();
    const { acsUrl, samlResponse } = await idp.unsolicited(metadata, 'heidi');
    const first = await postAcs(acsUrl, samlResponse);
    assert.equal(first.status, 303, await first.text());
    const target = new URL(first.headers.get('location')!);
    assert.equal(`${target.origin}${target.pathname}`, 'http://localhost:3000/handler/sso-start');
    assert.equal(target.searchParams.get('connection_id'), created.body.id);
    assert.equal(target.searchParams.get('code'), null, 'an unsolicited assertion never yields a code');
    const replay = await postAcs(acsUrl, samlResponse);
    assert.equal(replay.status, 400);
    assert.equal(((await replay.json()) as { details: { reason: string } }).details.reason, 'replayed');
  });

  it('answers malformed SAML input with SSO_RESPONSE_INVALID, never a 500', async () => {
    const server = get();
    const acs = connection.acs_url as string;
    const inputs = [
      'not base64 at all!',
      Buffer.from('<samlp:Response><unclosed>').toString('base64'),
      Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>').toString('base64'),
      Buffer.from('<x/>').toString('base64'),
    ];
    for (const input of inputs) {
      const res = await postAcs(acs, input);
      assert.equal(res.status, 400, input);
      assert.equal(((await res.json()) as { code: string }).code, 'SSO_RESPONSE_INVALID');
    }
    const unknown = await postAcs(`${server.url}/api/v1/auth/sso/saml/00000000-0000-4000-8000-000000000000/acs`, inputs[3]!);
    assert.equal(unknown.status, 404);
  });
});
