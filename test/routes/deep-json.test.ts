import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../helpers/api.ts';

/**
 * One end user could break a project by storing metadata nested about
 * 4,000 deep (the project's user listings then answered 500), and deeper bodies answered 500
 * directly. Bodies are bounded at 64 levels, metadata fields at 32 levels and 100,000
 * characters; rows stored before the bound still serialize.
 */

const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

async function raw(url: string, method: string, path: string, caller: Caller, body: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-stack-project-id': caller.projectId!,
    'x-stack-access-type': caller.accessType!,
  };
  if (caller.secretServerKey) headers['x-stack-secret-server-key'] = caller.secretServerKey;
  if (caller.accessToken) headers['x-stack-access-token'] = caller.accessToken;
  if (caller.adminAccessToken) headers['x-stack-admin-access-token'] = caller.adminAccessToken;
  Object.assign(headers, caller.headers ?? {});
  const res = await fetch(`${url}/api/v1${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, code: res.headers.get('x-stack-known-error'), text };
}

describeWithServer('deeply nested JSON (issue 12 finding 5)', (get) => {
  it('answers a 4,000-deep and a 500,000-deep body with a clean 400, never a 500', async () => {
    const server = get();
    const p = await createProject(server);
    for (const depth of [4000, 500_000]) {
      const res = await raw(server.url, 'POST', '/users', p.server, `{"client_metadata": ${nested(depth)}}`);
      assert.equal(res.status, 400, `${depth}: ${res.text.slice(0, 300)}`);
      assert.equal(res.code, 'SCHEMA_ERROR');
      assert.match(res.text, /nested too deeply: at most 64 levels/);
      const array = await raw(server.url, 'PATCH', '/users/me', p.server, '['.repeat(depth) + ']'.repeat(depth));
      assert.equal(array.status, 400, array.text.slice(0, 300));
    }
  });

  it('refuses metadata nested deeper than 32 levels or longer than 100,000 characters, for users and teams, from an end user too', async () => {
    const server = get();
    const p = await createProject(server);
    const user = await api(server, 'POST', '/users', p.server, { primary_email: 'deep@example.com' });
    const session = await api(server, 'POST', '/auth/sessions', p.server, { user_id: user.body.id });
    const endUser: Caller = { ...p.client, accessToken: session.body.access_token };
    for (const field of ['client_metadata', 'client_read_only_metadata', 'server_metadata']) {
      const res = await raw(server.url, 'POST', '/users', p.server, `{"${field}": ${nested(33)}}`);
      assert.equal(res.status, 400, res.text);
      assert.match(res.text, new RegExp(`body\\.${field} must be nested at most 32 levels deep`));
      const team = await raw(server.url, 'POST', '/teams', p.server, `{"display_name": "T", "${field}": ${nested(33)}}`);
      assert.equal(team.status, 400, team.text);
      assert.match(team.text, new RegExp(`body\\.${field} must be nested at most 32 levels deep`));
    }
    const mine = await raw(server.url, 'PATCH', '/users/me', endUser, `{"client_metadata": ${nested(40)}}`);
    assert.equal(mine.code, 'SCHEMA_ERROR', mine.text);
    const long = await api(server, 'PATCH', '/users/me', endUser, { client_metadata: { note: 'x'.repeat(100_000) } });
    assertKnownError(long, 'SCHEMA_ERROR', 400);
    assert.match(long.body.error, /body\.client_metadata must be at most 100000 characters long as JSON/);
    // At the bounds: accepted and returned as sent.
    const ok = await raw(server.url, 'PATCH', '/users/me', endUser, `{"client_metadata": ${nested(32)}}`);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(JSON.stringify(JSON.parse(ok.text).client_metadata), nested(32));
  });

  it('still serializes a user whose metadata was stored deeper before the bound existed', async () => {
    const server = get();
    const p = await createProject(server);
    const user = await api(server, 'POST', '/users', p.server, { primary_email: 'legacy@example.com' });
    const team = await api(server, 'POST', '/teams', p.server, { display_name: 'Legacy', creator_user_id: user.body.id });
    const legacy = nested(20_000);
    await server.gatehouse.core.runtime.db
      .updateTable('users')
      .set({ client_metadata: legacy, server_metadata: legacy })
      .where('id', '=', user.body.id)
      .execute();
    for (const path of [`/users/${user.body.id}`, '/users', `/team-member-profiles?team_id=${team.body.id}`]) {
      const res = await api(server, 'GET', path, p.server);
      assert.equal(res.status, 200, res.text.slice(0, 300));
      assert.ok(res.text.includes(legacy), `${path} lost the stored metadata`);
    }
  });
});
