import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

for (const dialect of testDialects()) {
  describe(`SCIM 2.0 provisioning of a team [${dialect}]`, () => {
    let server: TestServer;
    let dns: TestDnsServer;
    let p: Awaited<ReturnType<typeof createProject>>;
    let teamId: string;
    let token: string;
    let baseUrl: string;
    let userId: string;

    /** A SCIM request as a SCIM client sends it (plain HTTP, application/scim+json). */
    const scim = async (method: string, path: string, body?: unknown, bearer: string | null = token) => {
      const headers: Record<string, string> = { accept: 'application/scim+json' };
      if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
      if (body !== undefined) headers['content-type'] = 'application/scim+json';
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      assert.ok(res.status < 500, `${method} ${path} answered ${res.status}: ${text}`);
      if (res.status !== 204) assert.match(res.headers.get('content-type') ?? '', /^application\/scim\+json/);
      return { status: res.status, headers: res.headers, body: text === '' ? null : JSON.parse(text) };
    };
    const assertScimError = (res: { status: number; body: any }, status: number, scimType?: string) => {
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.deepEqual(res.body.schemas, [ERROR]);
      assert.equal(res.body.status, String(status));
      if (scimType) assert.equal(res.body.scimType, scimType);
      assert.equal(typeof res.body.detail, 'string');
    };
    const teamPermissions = async (user: string) => {
      const res = await api(server, 'GET', `/team-permissions?team_id=${teamId}&user_id=${user}`, p.server);
      assert.equal(res.status, 200, res.text);
      return (res.body.items as Array<{ id: string }>).map((i) => i.id).sort();
    };
    const userTeams = async (user: string) => {
      const res = await api(server, 'GET', `/teams?user_id=${user}`, p.server);
      assert.equal(res.status, 200, res.text);
      return (res.body.items as Array<{ id: string }>).map((t) => t.id);
    };

    before(async () => {
      dns = await startDnsServer();
      server = await startTestServer(dialect, { dnsServers: [dns.address] });
      p = await createProject(server, { sign_up_enabled: true });
      const team = await api(server, 'POST', '/teams', p.server, { display_name: 'Example Inc.' });
      teamId = team.body.id;
      const def = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'tour_guides' });
      assert.equal(def.status, 201, def.text);
      const created = await api(server, 'POST', `/teams/${teamId}/scim-tokens`, p.server, { description: 'Okta' });
      assert.equal(created.status, 201, created.text);
      token = created.body.token;
      baseUrl = created.body.base_url;
      assert.equal(baseUrl, `${server.url}/api/v1/scim/v2/${teamId}`);
    });
    after(async () => {
      await server?.close();
      await dns?.close();
    });

    it('lists tokens without their values and refuses requests without a valid token of the team', async () => {
      const list = await api(server, 'GET', `/teams/${teamId}/scim-tokens`, p.server);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.items.length, 1);
      assert.equal(list.body.items[0].token, undefined);
      assert.equal(list.body.items[0].last_four, token.slice(-4));
      assertScimError(await scim('GET', '/Users', undefined, null), 401);
      assertScimError(await scim('GET', '/Users', undefined, 'gh_scim_not-a-token'), 401);
      const other = await api(server, 'POST', '/teams', p.server, { display_name: 'Other' });
      const res = await fetch(`${server.url}/api/v1/scim/v2/${other.body.id}/Users`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 401);
    });

    it('serves ServiceProviderConfig, Schemas and ResourceTypes', async () => {
      const config = await scim('GET', '/ServiceProviderConfig');
      assert.equal(config.status, 200);
      assert.equal(config.body.patch.supported, true);
      assert.equal(config.body.filter.supported, true);
      const schemas = await scim('GET', '/Schemas');
      assert.deepEqual(
        schemas.body.Resources.map((s: { id: string }) => s.id),
        [USER, GROUP],
      );
      assert.equal((await scim('GET', `/Schemas/${USER}`)).body.name, 'User');
      const types = await scim('GET', '/ResourceTypes');
      assert.deepEqual(
        types.body.Resources.map((t: { endpoint: string }) => t.endpoint),
        ['/Users', '/Groups'],
      );
    });

    it('creates a user (RFC 7644 §3.3 example) who joins the team, and refuses a second with uniqueness', async () => {
      const body = {
        schemas: [USER],
        userName: 'bjensen',
        externalId: 'bjensen',
        name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
        emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
      };
      const res = await scim('POST', '/Users', body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      userId = res.body.id;
      assert.equal(res.headers.get('location'), `${baseUrl}/Users/${userId}`);
      assert.equal(res.body.userName, 'bjensen');
      assert.equal(res.body.externalId, 'bjensen');
      assert.equal(res.body.name.givenName, 'Barbara');
      assert.equal(res.body.active, true);
      assert.equal(res.body.emails[0].value, 'bjensen@example.com');
      assert.equal(res.body.meta.resourceType, 'User');
      assert.deepEqual(await userTeams(userId), [teamId]);
      assertScimError(await scim('POST', '/Users', body), 409, 'uniqueness');
    });

    it('gets a user and lists with filter, startIndex and count', async () => {
      const got = await scim('GET', `/Users/${userId}`);
      assert.equal(got.status, 200);
      assert.equal(got.body.id, userId);
      await scim('POST', '/Users', { schemas: [USER], userName: 'jsmith', emails: [{ value: 'jsmith@example.com', primary: true }] });
      const filtered = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "bjensen"')}`);
      assert.equal(filtered.status, 200);
      assert.deepEqual(filtered.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
      assert.equal(filtered.body.totalResults, 1);
      assert.equal(filtered.body.Resources[0].id, userId);
      const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody"')}`);
      assert.equal(none.body.totalResults, 0);
      const page = await scim('GET', '/Users?startIndex=2&count=1');
      assert.equal(page.body.totalResults, 2);
      assert.equal(page.body.startIndex, 2);
      assert.equal(page.body.itemsPerPage, 1);
      const first = await scim('GET', '/Users?startIndex=1&count=1');
      assert.deepEqual([first.body.Resources[0].userName, page.body.Resources[0].userName].sort(), ['bjensen', 'jsmith']);
      assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('title pr')}`), 400, 'invalidFilter');
      assertScimError(await scim('GET', '/Users/00000000-0000-4000-8000-000000000000'), 404);
    });

    it('deactivates a user with PATCH active false: membership and every session stop at once', async () => {
      const session = await api(server, 'POST', '/auth/sessions', p.server, {
        user_id: userId,
        expires_in_millis: 3_600_000,
        is_impersonation: false,
      });
      assert.equal(session.status, 200, session.text);
      const me = await api(server, 'GET', '/users/me', { ...p.client, accessToken: session.body.access_token });
      assert.equal(me.status, 200, me.text);

      const res = await scim('PATCH', `/Users/${userId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { active: false, nickName: 'Babs' } }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.active, false);
      assert.deepEqual(await userTeams(userId), []);
      const refresh = await api(server, 'POST', '/auth/sessions/current/refresh', {
        ...p.client,
        refreshToken: session.body.refresh_token,
      });
      assert.notEqual(refresh.status, 200, refresh.text);
      const after = await api(server, 'GET', '/users/me', { ...p.client, accessToken: session.body.access_token });
      assert.notEqual(after.status, 200, after.text);

      // Entra ID's spelling reactivates: path "active", value "True".
      const back = await scim('PATCH', `/Users/${userId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
      });
      assert.equal(back.body.active, true);
      assert.deepEqual(await userTeams(userId), [teamId]);
    });

    it('replaces a user with PUT and patches names', async () => {
      const put = await scim('PUT', `/Users/${userId}`, {
        schemas: [USER],
        userName: 'bjensen',
        externalId: 'bjensen',
        name: { givenName: 'Barbara', familyName: 'Jensen-Smith' },
        emails: [{ value: 'bjensen@example.com', primary: true }],
        active: true,
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(put.body.name.familyName, 'Jensen-Smith');
      const patched = await scim('PATCH', `/Users/${userId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'name.givenName', value: 'Babs' }],
      });
      assert.equal(patched.body.name.givenName, 'Babs');
      assertScimError(
        await scim('PATCH', `/Users/${userId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value: 'x' }] }),
        400,
        'invalidPath',
      );
    });

    it('maps groups to team permissions: create, filter, patch members, delete', async () => {
      const created = await scim('POST', '/Groups', {
        schemas: [GROUP],
        displayName: 'Tour Guides',
        members: [{ value: userId, display: 'Babs Jensen' }],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const groupId = created.body.id;
      assert.equal(created.body['urn:gatehouse:scim:group:permission'], 'tour_guides');
      assert.deepEqual(
        created.body.members.map((m: { value: string }) => m.value),
        [userId],
      );
      assert.ok((await teamPermissions(userId)).includes('tour_guides'));

      const filtered = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Tour Guides"')}`);
      assert.equal(filtered.body.totalResults, 1);
      assert.equal((await scim('GET', `/Groups/${groupId}`)).body.displayName, 'Tour Guides');

      const removed = await scim('PATCH', `/Groups/${groupId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'remove', path: `members[value eq "${userId}"]` }],
      });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.deepEqual(removed.body.members, []);
      assert.ok(!(await teamPermissions(userId)).includes('tour_guides'));
      const added = await scim('PATCH', `/Groups/${groupId}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'add', path: 'members', value: [{ display: 'Babs Jensen', $ref: `${baseUrl}/Users/${userId}`, value: userId }] },
        ],
      });
      assert.equal(added.body.members.length, 1);
      assert.ok((await teamPermissions(userId)).includes('tour_guides'));

      assertScimError(await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Tour Guides' }), 409, 'uniqueness');
      assertScimError(
        await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'X', members: [{ value: 'nobody' }] }),
        400,
        'invalidValue',
      );

      const deleted = await scim('DELETE', `/Groups/${groupId}`);
      assert.equal(deleted.status, 204);
      assert.ok(!(await teamPermissions(userId)).includes('tour_guides'));
      assertScimError(await scim('GET', `/Groups/${groupId}`), 404);
    });

    it('answers malformed SCIM input with SCIM errors, never a 500', async () => {
      assertScimError(await scim('POST', '/Users', '{"userName": '), 400, 'invalidSyntax');
      assertScimError(await scim('POST', '/Users', []), 400, 'invalidSyntax');
      assertScimError(await scim('POST', '/Users', { userName: 'x'.repeat(300) }), 400, 'invalidValue');
      assertScimError(await scim('POST', '/Users', { userName: 42 }), 400, 'invalidValue');
      assertScimError(await scim('PATCH', `/Users/${userId}`, { Operations: [] }), 400, 'invalidSyntax');
      assertScimError(await scim('PATCH', `/Users/${userId}`, { schemas: [PATCH_OP], Operations: [{ op: 'move' }] }), 400, 'invalidSyntax');
      assertScimError(
        await scim('PATCH', `/Users/${userId}`, {
          schemas: [PATCH_OP],
          Operations: Array.from({ length: 101 }, () => ({ op: 'replace', path: 'active', value: true })),
        }),
        400,
        'tooMany',
      );
      assertScimError(await scim('GET', `/Users?count=abc`), 400, 'invalidValue');
      assertScimError(await scim('GET', '/Nothing'), 404);
    });

    it('deletes a user: sessions and membership go; the account stays unless it exists only through the verified domain', async () => {
      const session = await api(server, 'POST', '/auth/sessions', p.server, {
        user_id: userId,
        expires_in_millis: 3_600_000,
        is_impersonation: false,
      });
      const res = await scim('DELETE', `/Users/${userId}`);
      assert.equal(res.status, 204);
      assertScimError(await scim('GET', `/Users/${userId}`), 404);
      assert.deepEqual(await userTeams(userId), []);
      const me = await api(server, 'GET', '/users/me', { ...p.client, accessToken: session.body.access_token });
      assert.notEqual(me.status, 200);
      // example.com is not this team's verified domain: the account stays.
      assert.equal((await api(server, 'GET', `/users/${userId}`, p.server)).status, 200);

      const claim = await api(server, 'POST', `/teams/${teamId}/domains`, p.server, { domain: 'example.net' });
      dns.records.set('_gatehouse-challenge.example.net', [claim.body.challenge.value]);
      assert.equal((await api(server, 'POST', `/teams/${teamId}/domains/example.net/verify`, p.server)).status, 200);
      const alice = await scim('POST', '/Users', { schemas: [USER], userName: 'alice@example.net' });
      assert.equal(alice.status, 201, JSON.stringify(alice.body));
      assert.equal((await api(server, 'GET', `/users/${alice.body.id}`, p.server)).body.primary_email_verified, true);
      assert.equal((await scim('DELETE', `/Users/${alice.body.id}`)).status, 204);
      assertKnownError(await api(server, 'GET', `/users/${alice.body.id}`, p.server), 'USER_NOT_FOUND', 404);
    });

    it('stops answering a revoked token at once', async () => {
      const list = await api(server, 'GET', `/teams/${teamId}/scim-tokens`, p.server);
      const revoked = await api(server, 'DELETE', `/teams/${teamId}/scim-tokens/${list.body.items[0].id}`, p.server);
      assert.equal(revoked.status, 200, revoked.text);
      assertScimError(await scim('GET', '/Users'), 401);
      assertKnownError(
        await api(server, 'DELETE', `/teams/${teamId}/scim-tokens/${list.body.items[0].id}`, p.server),
        'SCIM_TOKEN_NOT_FOUND',
        404,
      );
    });
  });
}
