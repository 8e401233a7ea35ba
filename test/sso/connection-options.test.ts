import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, type Caller } from '../helpers/api.ts';
import { APP_ERROR_URL, exchangeCode, newAppFlow } from '../helpers/oauth-flow.ts';
import { startSamlIdp, type ResponseTweaks, type TestSamlIdp } from '../helpers/saml-idp.ts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { postAcs, ssoAuthorizeUrl } from '../helpers/sso-flow.ts';
import { generateTotp } from '../../core/mfa/index.ts';

describeWithServer('SSO connection options: group mapping, MFA policy, IdP metadata refresh', (get) => {
  let idp: TestSamlIdp;
  let oidc: TestOidcProvider;
  let projectId: string;
  let serverCaller: Caller;
  let teamId: string;
  let saml: Record<string, any>;
  let openid: Record<string, any>;

  before(async () => {
    const server = get();
    idp = await startSamlIdp();
    const project = await createProject(server);
    projectId = project.projectId;
    const keys = await createProjectKeys(server, project.admin);
    serverCaller = { projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
    teamId = (await api(server, 'POST', '/teams', serverCaller, { display_name: 'Corp' })).body.id;
    const created = await api(server, 'POST', `/teams/${teamId}/sso-connections`, serverCaller, {
      type: 'saml',
      idp_metadata_url: idp.metadataUrl,
      domains: ['corp.example'],
      attribute_mapping: { groups: 'roles' },
      group_permissions: { admins: ['team_admin'], readers: ['$read_members'] },
    });
    assert.equal(created.status, 201, created.text);
    saml = created.body;
    // The OpenID connection's redirect_uri is known once it exists: register it, then restart the provider with it.
    const first = await startOidcProvider(['http://localhost/placeholder']);
    const port = Number(new URL(first.issuer).port);
    const made = await api(server, 'POST', `/teams/${teamId}/sso-connections`, serverCaller, {
      type: 'oidc',
      issuer_url: first.issuer,
      client_id: first.clientId,
      client_secret: first.clientSecret,
      group_permissions: { 'eng-admins': ['team_admin'] },
    }).finally(() => first.close());
    assert.equal(made.status, 201, made.text);
    openid = made.body;
    oidc = await startOidcProvider([openid.redirect_uri], { port, groups: { pat: ['eng-admins', 'everyone'], quinn: ['everyone'] } });
  });
  after(async () => {
    await idp?.close();
    await oidc?.close();
  });

  /** SP-initiated SAML sign-in of `<login>@corp.example` up to the app's redirect (303 with a code, or to the error URL). */
  async function samlSignIn(login: string, tweaks: ResponseTweaks = {}) {
    const server = get();
    const flow = newAppFlow();
    const start = await fetch(ssoAuthorizeUrl(server, projectId, flow, { connection_id: saml.id }), { redirect: 'manual' });
    assert.equal(start.status, 307, await start.text());
    const { acsUrl, samlResponse } = await idp.respond(start.headers.get('location')!, login, tweaks);
    const back = await postAcs(acsUrl, samlResponse);
    assert.equal(back.status, 303, await back.text());
    return { flow, target: new URL(back.headers.get('location')!) };
  }
  async function samlTokens(login: string, tweaks: ResponseTweaks = {}) {
    const { flow, target } = await samlSignIn(login, tweaks);
    return exchangeCode(get(), projectId, target.searchParams.get('code')!, flow.verifier);
  }
  const directPermissions = async (userId: string) => {
    const res = await api(get(), 'GET', `/team-permissions?team_id=${teamId}&user_id=${userId}`, serverCaller);
    assert.equal(res.status, 200, res.text);
    return (res.body.items as Array<{ id: string }>).map((p) => p.id).sort();
  };

  it('answers the new options with their defaults: trust the IdP’s MFA, the group mapping, when the metadata was fetched', () => {
    assert.equal(saml.mfa_policy, 'trust_idp');
    assert.deepEqual(saml.group_permissions, { admins: ['team_admin'], readers: ['$read_members'] });
    assert.deepEqual(saml.attribute_mapping, { groups: 'roles' });
    assert.equal(typeof saml.idp_metadata_fetched_at_millis, 'number');
    assert.equal(openid.idp_metadata_fetched_at_millis, null);
  });

  it('maps SAML groups (the mapped attribute) to team permissions at each sign-in, adding and removing the mapped ones only', async () => {
    const first = await samlTokens('gina', { attributes: { roles: ['admins', 'unmapped'] } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const userId = first.body.user_id as string;
    assert.deepEqual(await directPermissions(userId), ['team_admin', 'team_member']);
    const second = await samlTokens('gina', { attributes: { roles: ['readers'] } });
    assert.equal(second.body.user_id, userId);
    assert.deepEqual(await directPermissions(userId), ['$read_members', 'team_member'], 'team_admin removed, team_member (unmapped) kept');
    await samlTokens('gina', { attributes: { groups: ['admins'] } });
    assert.deepEqual(await directPermissions(userId), ['team_member'], 'the default groups attribute is not read when another is mapped');
  });

  it('maps the OpenID `groups` claim to team permissions', async () => {
    const server = get();
    const signIn = async (login: string) => {
      const flow = newAppFlow();
      const start = await fetch(ssoAuthorizeUrl(server, projectId, flow, { connection_id: openid.id }), { redirect: 'manual' });
      assert.equal(start.status, 307, await start.text());
      const callback = await signInAtProvider(
        new CookieJar(),
        start.headers.get('location')!,
        login,
        `${server.url}/api/v1/auth/sso/oidc/`,
      );
      const res = await fetch(callback, { redirect: 'manual' });
      assert.equal(res.status, 303, await res.text());
      const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
      const tokens = await exchangeCode(server, projectId, code, flow.verifier);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      return tokens.body.user_id as string;
    };
    assert.deepEqual(await directPermissions(await signIn('pat')), ['team_admin', 'team_member']);
    assert.deepEqual(await directPermissions(await signIn('quinn')), ['team_member']);
  });

  it('trusts the IdP’s MFA by default; with mfa_policy require_ours a user with TOTP gives a code after the SSO sign-in', async () => {
    const server = get();
    const first = await samlTokens('hank');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const userId = first.body.user_id as string;
    const secret = randomBytes(20).toString('base64');
    const patched = await api(server, 'PATCH', `/users/${userId}`, serverCaller, { totp_secret_base64: secret });
    assert.equal(patched.status, 200, patched.text);

    const trusted = await samlTokens('hank');
    assert.equal(trusted.status, 200, 'trust_idp: the IdP sign-in is enough');

    const changed = await api(server, 'PATCH', `/teams/${teamId}/sso-connections/${saml.id}`, serverCaller, { mfa_policy: 'require_ours' });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.mfa_policy, 'require_ours');
    const stopped = await samlTokens('hank');
    assert.equal(stopped.status, 400);
    assert.equal(stopped.body.code, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    assert.equal(stopped.body.access_token, undefined);
    const client: Caller = { projectId, accessType: 'client' };
    const done = await api(server, 'POST', '/auth/mfa/sign-in', client, {
      type: 'totp',
      totp: generateTotp(secret, server.clock.now()),
      code: stopped.body.details.attempt_code,
    });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.user_id, userId);
    await api(server, 'PATCH', `/teams/${teamId}/sso-connections/${saml.id}`, serverCaller, { mfa_policy: 'trust_idp' });
  });

  it('follows an IdP certificate rollover once the metadata URL is fetched again (refresh-metadata)', async () => {
    const server = get();
    await idp.rollOver();
    const refused = await samlSignIn('ivan');
    assert.equal(`${refused.target.origin}${refused.target.pathname}`, APP_ERROR_URL);
    assert.equal(JSON.parse(refused.target.searchParams.get('details')!).reason, 'signature');
    server.clock.advance(1000);
    const refreshed = await api(server, 'POST', `/teams/${teamId}/sso-connections/${saml.id}/refresh-metadata`, serverCaller);
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.ok(refreshed.body.idp_metadata_fetched_at_millis > saml.idp_metadata_fetched_at_millis);
    const tokens = await samlTokens('ivan');
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    const manual = await api(server, 'POST', `/teams/${teamId}/sso-connections/${openid.id}/refresh-metadata`, serverCaller);
    assertKnownError(manual, 'SCHEMA_ERROR', 400);
  });
});
