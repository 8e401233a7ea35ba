import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject, createProjectKeys, type Caller } from '../helpers/api.ts';
import { newAppFlow } from '../helpers/oauth-flow.ts';
import { startSamlIdp, type TestSamlIdp } from '../helpers/saml-idp.ts';
import { postAcs, ssoAuthorizeUrl } from '../helpers/sso-flow.ts';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** The classic entity-expansion bomb ("billion laughs"): ten levels of ten references. */
const BILLION_LAUGHS = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE lolz [<!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
  ']>',
  '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&lol9;"/>',
].join('');

/** JSON nested `depth` levels deep. */
const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describeWithServer('SSO, SCIM and domain routes: hostile input never answers 500', (get) => {
  let idp: TestSamlIdp;
  let serverCaller: Caller;
  let projectId: string;
  let teamId: string;
  let connection: Record<string, any>;
  let scimToken: string;
  let scimBase: string;

  before(async () => {
    const server = get();
    idp = await startSamlIdp();
    const project = await createProject(server);
    projectId = project.projectId;
    const keys = await createProjectKeys(server, project.admin);
    serverCaller = { projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
    teamId = (await api(server, 'POST', '/teams', serverCaller, { display_name: 'Corp' })).body.id;
    connection = (
      await api(server, 'POST', `/teams/${teamId}/sso-connections`, serverCaller, { type: 'saml', idp_metadata_xml: idp.metadataXml })
    ).body;
    const token = await api(server, 'POST', `/teams/${teamId}/scim-tokens`, serverCaller, { description: 'hostile' });
    assert.equal(token.status, 201, token.text);
    scimToken = token.body.token;
    scimBase = token.body.base_url;
  });
  after(async () => {
    await idp?.close();
  });

  /** A raw request whose answer must be a 4xx (never a 5xx, never a hang). */
  async function refused(url: string, init: RequestInit, what: string): Promise<Response> {
    const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status} ${text.slice(0, 300)}`);
    return res;
  }

  it('every SSO, SCIM and verified-domain route is in the OpenAPI document', () => {
    const paths = Object.keys(JSON.parse(readFileSync('docs/openapi.json', 'utf8')).paths as Record<string, unknown>);
    for (const path of [
      '/api/v1/auth/sso/authorize',
      '/api/v1/auth/sso/discovery',
      '/api/v1/auth/sso/saml/{connection_id}/acs',
      '/api/v1/auth/sso/saml/{connection_id}/metadata',
      '/api/v1/auth/sso/oidc/{connection_id}/callback',
      '/api/v1/teams/{team_id}/sso-connections',
      '/api/v1/teams/{team_id}/sso-connections/{connection_id}',
      '/api/v1/teams/{team_id}/sso-connections/{connection_id}/refresh-metadata',
      '/api/v1/teams/{team_id}/domains',
      '/api/v1/teams/{team_id}/domains/{domain}',
      '/api/v1/teams/{team_id}/domains/{domain}/verify',
      '/api/v1/teams/{team_id}/scim-tokens',
      '/api/v1/teams/{team_id}/scim-tokens/{token_id}',
      '/api/v1/scim/v2/{team_id}/Users',
      '/api/v1/scim/v2/{team_id}/Users/{id}',
      '/api/v1/scim/v2/{team_id}/Groups',
      '/api/v1/scim/v2/{team_id}/Groups/{id}',
      '/api/v1/scim/v2/{team_id}/ServiceProviderConfig',
    ])
      assert.ok(paths.includes(path), path);
  });

  it('refuses hostile IdP metadata XML (entity expansion, unclosed, deep nesting) as SSO_IDP_METADATA_INVALID, quickly', async () => {
    const server = get();
    // 150,000 unclosed tags once kept the DOM parser's error recovery busy for hours (quadratic).
    for (const xml of [BILLION_LAUGHS, '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"', '<a>'.repeat(150_000)]) {
      const started = Date.now();
      const res = await api(server, 'POST', `/teams/${teamId}/sso-connections`, serverCaller, { type: 'saml', idp_metadata_xml: xml });
      assert.equal(res.status, 400, res.text.slice(0, 300));
      assert.equal(res.body.code, 'SSO_IDP_METADATA_INVALID');
      assert.ok(Date.now() - started < 5000, `refused in ${Date.now() - started} ms`);
    }
  });

  it('refuses hostile SAMLResponses at the ACS: billion laughs, truncated base64, a response cut in half, odd form fields', async () => {
    const server = get();
    const start = await fetch(ssoAuthorizeUrl(server, projectId, newAppFlow(), { connection_id: connection.id }), { redirect: 'manual' });
    const { acsUrl, samlResponse } = await idp.respond(start.headers.get('location')!, 'mallory');
    const bodies = [
      Buffer.from(BILLION_LAUGHS).toString('base64'),
      samlResponse.slice(0, samlResponse.length - 7),
      Buffer.from(Buffer.from(samlResponse, 'base64').toString('utf8').slice(0, 2000)).toString('base64'),
      '====',
      Buffer.from('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">'.repeat(5000)).toString('base64'),
      Buffer.from('<a>'.repeat(120_000)).toString('base64'),
    ];
    const started = Date.now();
    for (const body of bodies) await refused(acsUrl, { method: 'POST', ...form({ SAMLResponse: body }) }, body.slice(0, 40));
    assert.ok(Date.now() - started < 10_000, `refused in ${Date.now() - started} ms`);
    await refused(
      acsUrl,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'SAMLResponse=a&SAMLResponse=b' },
      'twice',
    );
    await refused(acsUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deepJson(50_000) }, 'deep JSON');
    await refused(acsUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }, 'empty');
    assert.equal((await postAcs(acsUrl, samlResponse)).status, 303, 'the intact response still signs in afterwards');
  });

  it('refuses hostile SCIM bodies in SCIM’s error format: bad PATCH ops, deep JSON, not JSON, wrong shapes', async () => {
    const scim = (method: string, path: string, body: string) =>
      refused(
        `${scimBase}${path}`,
        { method, headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' }, body },
        `${method} ${path} ${body.slice(0, 60)}`,
      );
    const created = await fetch(`${scimBase}/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: [USER], userName: 'target@corp.example', emails: [{ value: 'target@corp.example', primary: true }] }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const id = ((await created.json()) as { id: string }).id;
    const patches = [
      { schemas: [PATCH_OP], Operations: [{ op: 'explode', path: 'active', value: false }] },
      { schemas: [PATCH_OP], Operations: 'replace' },
      { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'userName[type eq "work"', value: 'x' }] },
      { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'name.givenName.deeper.still', value: 'x' }] },
      { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members[value eq', value: [] }] },
      { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: 'not an object' }] },
      { schemas: [PATCH_OP], Operations: [{ op: 'remove' }] },
      { schemas: ['urn:wrong'], Operations: [] },
      [],
    ];
    for (const patch of patches) {
      const res = await scim('PATCH', `/Users/${id}`, JSON.stringify(patch));
      assert.match(res.headers.get('content-type') ?? '', /^application\/scim\+json/);
    }
    for (const body of [
      deepJson(50_000),
      '{"schemas":',
      'null',
      '"a string"',
      JSON.stringify({ schemas: [USER], userName: { deep: deepJson(10) } }),
    ])
      await scim('POST', '/Users', body);
    await scim('PUT', `/Users/${id}`, deepJson(50_000));
    await scim('PATCH', '/Groups/not-a-uuid', JSON.stringify(patches[0]));
    const filter = await fetch(`${scimBase}/Users?filter=${encodeURIComponent('userName eq "a" and (((((((')}`, {
      headers: { authorization: `Bearer ${scimToken}` },
    });
    assert.ok(filter.status >= 400 && filter.status < 500, `filter: ${filter.status}`);
  });

  it('refuses deep JSON and wrong shapes on the connection, domain and SCIM token routes with SCHEMA_ERROR', async () => {
    const server = get();
    const headers = {
      'content-type': 'application/json',
      'x-stack-project-id': projectId,
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': serverCaller.secretServerKey!,
    };
    for (const path of [
      `/teams/${teamId}/sso-connections`,
      `/teams/${teamId}/sso-connections/${connection.id}`,
      `/teams/${teamId}/domains`,
      `/teams/${teamId}/scim-tokens`,
    ]) {
      const method = path.endsWith(connection.id) ? 'PATCH' : 'POST';
      await refused(`${server.url}/api/v1${path}`, { method, headers, body: deepJson(50_000) }, `${path} deep`);
      await refused(`${server.url}/api/v1${path}`, { method, headers, body: '[1,2' }, `${path} truncated`);
    }
    const mapping = await api(server, 'PATCH', `/teams/${teamId}/sso-connections/${connection.id}`, serverCaller, {
      group_permissions: { admins: 'team_admin' },
    });
    assert.equal(mapping.body.code, 'SCHEMA_ERROR');
  });
});

function form(fields: Record<string, string>): RequestInit {
  return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) };
}
