import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, describe, it } from 'node:test';
import { api, createProject, createProjectKeys, type Caller } from '../test/helpers/api.ts';
import { createMigratedTestDatabase, createTestDatabase, testDialects, type TestDatabase } from '../test/helpers/dialects.ts';
import { INTERNAL_KEYS, type TestServer } from '../test/helpers/server.ts';
import { ConfigError } from './config.ts';
import { runCopyCommand } from './copy-command.ts';
import { DatabaseCopyError, parentsFirst } from './database-copy.ts';
import { createGatehouse } from './index.ts';

/**
 * `gatehouse copy`: a populated server's SQLite file copied into an empty database of each tested
 * dialect, then a server on the copy: every user signs in with their password, and the project's
 * keys, teams, permissions, user API keys, webhook endpoints and email templates are there. The
 * source file is left byte for byte as it was; a non-empty target is refused.
 */

const SECRET = 'copy-test-secret';
const databases: TestDatabase[] = [];
after(async () => {
  for (const d of databases) await d.drop().catch(() => {});
});

/** A real server (node:http) on `databaseUrl`, stopped without dropping the database. */
async function serveOn(databaseUrl: string): Promise<TestServer & { stop(): Promise<void> }> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  const gatehouse = await createGatehouse({
    databaseUrl,
    baseUrl: url,
    secret: SECRET,
    environment: 'test',
    seedKeys: INTERNAL_KEYS,
    smtpUrl: null,
    databaseTimeouts: { healthIntervalMs: 0 },
  });
  http.on('request', gatehouse.handler);
  const stop = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await gatehouse.close();
  };
  return { url, gatehouse, stop } as unknown as TestServer & { stop(): Promise<void> };
}

/** What the project holds, read through the API (ids and names, sorted; no times that move). */
async function snapshot(server: TestServer, admin: Caller, teamId: string) {
  const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id).sort();
  const users = await api(server, 'GET', '/users', admin);
  const teams = await api(server, 'GET', '/teams', admin);
  const members = await api(server, 'GET', `/team-permissions?team_id=${teamId}&recursive=false`, admin);
  const definitions = await api(server, 'GET', '/team-permission-definitions', admin);
  const keys = await api(server, 'GET', '/internal/api-keys', admin);
  const hooks = await api(server, 'GET', '/internal/webhook-endpoints', admin);
  const templates = await api(server, 'GET', '/internal/email-templates', admin);
  for (const r of [users, teams, members, definitions, keys, hooks, templates]) assert.equal(r.status, 200, r.text);
  return {
    users: users.body.items.map((u: { id: string; primary_email: string }) => `${u.id} ${u.primary_email}`).sort(),
    teams: teams.body.items.map((t: { id: string; display_name: string }) => `${t.id} ${t.display_name}`).sort(),
    grants: members.body.items.map((p: { id: string; user_id: string }) => `${p.user_id} ${p.id}`).sort(),
    definitions: ids(definitions),
    keys: ids(keys),
    hooks: hooks.body.items.map((h: { id: string; url: string }) => `${h.id} ${h.url}`).sort(),
    templates: templates.body.templates
      ? templates.body.templates.map((t: { id: string }) => t.id).sort()
      : ids(templates as { body: { items: { id: string }[] } }),
  };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('gatehouse copy', () => {
  it('orders tables after the tables they reference, and names a cycle', () => {
    const shape = (name: string, references: string[]) => ({ name, columns: ['id'], primaryKey: ['id'], references });
    const ordered = parentsFirst([shape('b', ['a']), shape('c', ['b', 'a']), shape('a', [])]).map((s) => s.name);
    assert.deepEqual(ordered, ['a', 'b', 'c']);
    assert.throws(() => parentsFirst([shape('x', ['y']), shape('y', ['x'])]), /cycle among: x, y/);
  });

  it('refuses a missing source, an existing SQLite target and the same database twice', async () => {
    await assert.rejects(runCopyCommand(['--from', '/nonexistent/gatehouse.db', '--to', 'postgres://x@127.0.0.1/db']), ConfigError);
    await assert.rejects(runCopyCommand(['--from', 'postgres://x@127.0.0.1/db', '--to', 'postgres://x@127.0.0.1/db']), /same database/);
    await assert.rejects(runCopyCommand(['--from', 'postgres://x@127.0.0.1/db']), /both --from and --to/);
    await assert.rejects(runCopyCommand(['--to', import.meta.filename, '--from', 'postgres://x@127.0.0.1/db']), /already exists/);
  });

  for (const dialect of testDialects()) {
    it(`copies a populated SQLite server into an empty ${dialect} database, where everything works`, async () => {
      const source = await createMigratedTestDatabase('sqlite');
      databases.push(source);
      const a = await serveOn(source.databaseUrl);
      const project = await createProject(a, {
        allow_user_api_keys: true,
        email_config: {
          type: 'standard',
          host: '127.0.0.1',
          port: 2525,
          username: 'u',
          password: 'p',
          sender_name: 'Acme',
          sender_email: 'noreply@acme.example.com',
        },
      });
      const keys = await createProjectKeys(a, project.admin);
      const admin: Caller = { projectId: project.projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey };
      const client: Caller = { projectId: project.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey };
      const people = ['ada', 'bob', 'cy'].map((n) => ({ email: `${n}-${dialect}@copy.example.com`, password: `${n}-Secret-pass-9` }));
      const ids: string[] = [];
      for (const p of people) {
        const u = await api(a, 'POST', '/users', admin, { primary_email: p.email, password: p.password, primary_email_auth_enabled: true });
        assert.equal(u.status, 201, u.text);
        ids.push(u.body.id);
      }
      const team = await api(a, 'POST', '/teams', admin, { display_name: 'Copied team' });
      assert.equal(team.status, 201, team.text);
      for (const id of ids.slice(0, 2))
        assert.equal((await api(a, 'POST', `/team-memberships/${team.body.id}/${id}`, admin, {})).status, 201);
      assert.equal((await api(a, 'POST', '/team-permission-definitions', admin, { id: 'docs:write' })).status, 201);
      assert.equal((await api(a, 'POST', `/team-permissions/${team.body.id}/${ids[0]}/docs:write`, admin, {})).status, 201);
      const userKey = await api(a, 'POST', '/user-api-keys', admin, { user_id: ids[1], description: 'CI key', expires_at_millis: null });
      assert.equal(userKey.status, 200, userKey.text);
      const hook = await api(a, 'POST', '/internal/webhook-endpoints', admin, { url: 'https://hooks.example.com/gatehouse' });
      assert.ok(hook.status < 300, hook.text);
      const template = await api(a, 'POST', '/internal/email-templates', admin, { display_name: 'Copied template' });
      assert.ok(template.status < 300, template.text);
      const before = await snapshot(a, admin, team.body.id);
      assert.equal(before.users.length, 3);
      assert.ok(before.templates.includes(template.body.id));
      await a.stop();
      const sourceFile = source.databaseUrl.slice('sqlite:'.length);
      const sourceHash = sha256(sourceFile);

      const target = await createTestDatabase(dialect);
      databases.push(target);
      await runCopyCommand(['--from', source.databaseUrl, '--to', target.databaseUrl]);
      assert.equal(sha256(sourceFile), sourceHash, 'the source file is unchanged');
      // A second copy into the now populated target is refused before anything is written.
      if (dialect === 'postgres')
        await assert.rejects(runCopyCommand(['--from', source.databaseUrl, '--to', target.databaseUrl]), DatabaseCopyError);

      const b = await serveOn(target.databaseUrl);
      try {
        assert.deepEqual(await snapshot(b, admin, team.body.id), before);
        // The user search index (SQLite's full-text table, derived, not copied) finds the copied users.
        const found = await api(b, 'GET', `/users?query=${encodeURIComponent(`bob-${dialect}`)}`, admin);
        assert.deepEqual(
          found.body.items.map((u: { id: string }) => u.id),
          [ids[1]],
        );
        for (const p of people) {
          const signIn = await api(b, 'POST', '/auth/password/sign-in', client, { email: p.email, password: p.password });
          assert.equal(signIn.status, 200, signIn.text);
          assert.ok(ids.includes(signIn.body.user_id));
        }
        const wrong = await api(b, 'POST', '/auth/password/sign-in', client, { email: people[0]!.email, password: 'not-the-password-1' });
        assert.equal(wrong.status, 400);
        // The user API key (sealed/hashed under the same secret) still authenticates.
        const check = await api(b, 'POST', '/user-api-keys/check', admin, { api_key: userKey.body.value });
        assert.equal(check.status, 200, check.text);
        assert.equal(check.body.user_id, ids[1]);
        // The webhook secret is sealed under the server secret and still opens.
        const endpoint = await api(b, 'GET', `/internal/webhook-endpoints/${hook.body.id}`, admin);
        assert.equal(endpoint.status, 200, endpoint.text);
      } finally {
        await b.stop();
      }
    });
  }
});
