import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { api, createProject, createProjectKeys, type Caller } from '../test/helpers/api.ts';
import { describeWithServer } from '../test/helpers/suite.ts';
import { startTestServer, type TestServer } from '../test/helpers/server.ts';
import { generateTotp } from '../core/mfa/index.ts';
import { ConfigError } from './config.ts';
import { runExportCommand } from './export-command.ts';
import { runImportCommand } from './import-command.ts';

/**
 * `gatehouse export` → `gatehouse import` into another server reproduces a project's users: ids,
 * emails and verification, sign-up times, metadata, teams with each member's permissions, project
 * permissions, OAuth links, and (with `--include-secrets` and the passphrase) passwords and TOTP.
 * The sealed file holds no hash in the clear; a wrong passphrase opens nothing; a connection cut
 * in the middle of the stream is resumed after the last complete user, with no line twice.
 */
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-export-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const PASSPHRASE = 'correct horse battery staple';
const TOTP_SECRET = Buffer.from('12345678901234567890').toString('base64');
const CONFIG = {
  oauth_providers: [{ id: 'github', type: 'standard', client_id: 'gh-client', client_secret: 'gh-secret' }],
};
const quietIo = { out: () => {}, err: () => {}, progress: () => {} };

async function seedProject(server: TestServer) {
  const project = await createProject(server, CONFIG);
  const keys = await createProjectKeys(server, project.admin);
  const admin: Caller = { projectId: project.projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey };
  const client: Caller = { projectId: project.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey };
  for (const [scope, id] of [
    ['team', 'docs:write'],
    ['project', 'billing:read'],
  ])
    assert.equal((await api(server, 'POST', `/${scope}-permission-definitions`, admin, { id })).status, 201);
  return { project, keys, admin, client };
}

const runExport = (server: TestServer, p: Awaited<ReturnType<typeof seedProject>>, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runExportCommand([...args, '--project', p.project.projectId, '--url', server.url, '--admin-key', p.keys.superSecretAdminKey], env);
const runImport = (server: TestServer, p: Awaited<ReturnType<typeof seedProject>>, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runImportCommand(
    [...args, '--project', p.project.projectId, '--url', server.url, '--admin-key', p.keys.superSecretAdminKey],
    env,
    quietIo,
  );

/** The server view of every user, as comparable across projects (no project id, no last-active time). */
async function usersOf(server: TestServer, admin: Caller) {
  const res = await api(server, 'GET', '/users?limit=200&order_by=signed_up_at', admin);
  assert.equal(res.status, 200, res.text);
  const out = [];
  for (const u of res.body.items) {
    const teams = await api(server, 'GET', `/teams?user_id=${u.id}`, admin);
    const grants = await api(server, 'GET', `/team-permissions?user_id=${u.id}&recursive=false`, admin);
    const projectGrants = await api(server, 'GET', `/project-permissions?user_id=${u.id}&recursive=false`, admin);
    out.push({
      id: u.id,
      primary_email: u.primary_email,
      primary_email_verified: u.primary_email_verified,
      primary_email_auth_enabled: u.primary_email_auth_enabled,
      display_name: u.display_name,
      signed_up_at_millis: u.signed_up_at_millis,
      client_metadata: u.client_metadata,
      client_read_only_metadata: u.client_read_only_metadata,
      server_metadata: u.server_metadata,
      has_password: u.has_password,
      totp: u.requires_totp_mfa,
      oauth: u.oauth_providers.map((o: { id: string; account_id: string }) => `${o.id}:${o.account_id}`),
      teams: teams.body.items.map((t: { id: string; display_name: string }) => `${t.id} ${t.display_name}`).sort(),
      grants: grants.body.items.map((g: { team_id: string; id: string }) => `${g.team_id}:${g.id}`).sort(),
      project_permissions: projectGrants.body.items.map((g: { id: string }) => g.id).sort(),
    });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

describeWithServer('gatehouse export (issue 30)', (get, dialect) => {
  let target: TestServer;
  before(async () => {
    target = await startTestServer(dialect);
  });
  after(() => target.close());

  it('export with sealed secrets, then import into another server: the same users, who sign in with their passwords and TOTP', async () => {
    const server = get();
    const source = await seedProject(server);
    const team = await api(server, 'POST', '/teams', source.admin, { display_name: 'Exported team', server_metadata: { plan: 'pro' } });
    assert.equal(team.status, 201, team.text);
    const people = Array.from({ length: 12 }, (_, i) => ({
      email: `user${i}-${dialect}@export.example.com`,
      password: `Password-${i}-long`,
    }));
    // One user through the import route, to carry an OAuth link (provider + account id).
    const seedFile = join(dir, `seed-${dialect}.ndjson`);
    writeFileSync(
      seedFile,
      `${JSON.stringify({ primary_email: 'linked@export.example.com', oauth_providers: [{ id: 'github', account_id: 'gh-42', email: 'linked@export.example.com' }] })}\n`,
    );
    assert.equal((await runImport(server, source, [seedFile]))!.failed, 0);
    for (const [i, person] of people.entries()) {
      const u = await api(server, 'POST', '/users', source.admin, {
        primary_email: person.email,
        primary_email_verified: i % 2 === 0,
        password: person.password,
        display_name: `User ${i}`,
        client_metadata: { i },
        server_metadata: { nested: { deep: [i] } },
        ...(i === 0 ? { totp_secret_base64: TOTP_SECRET } : {}),
      });
      assert.equal(u.status, 201, u.text);
      if (i < 3) {
        assert.equal((await api(server, 'POST', `/team-memberships/${team.body.id}/${u.body.id}`, source.admin, {})).status, 201);
        if (i === 1)
          assert.equal(
            (await api(server, 'POST', `/team-permissions/${team.body.id}/${u.body.id}/docs:write`, source.admin, {})).status,
            201,
          );
      }
      if (i === 2)
        assert.equal((await api(server, 'POST', `/project-permissions/${u.body.id}/billing:read`, source.admin, {})).status, 201);
    }
    const before = await usersOf(server, source.admin);
    assert.equal(before.length, 13);

    const file = join(dir, `sealed-${dialect}.ndjson`);
    await assert.rejects(
      runExport(server, source, ['--out', file, '--include-secrets'], { GATEHOUSE_EXPORT_PASSPHRASE: 'short' }),
      /at least 12/,
    );
    const summary = await runExport(server, source, ['--out', file, '--include-secrets'], { GATEHOUSE_EXPORT_PASSPHRASE: PASSPHRASE });
    assert.deepEqual({ ...summary, seconds: 0 }, { teams: 1, users: 13, seconds: 0, resumed: 0 });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes('$argon2id$') && !text.includes('password_hash') && !text.includes(TOTP_SECRET), 'no secret in the clear');
    assert.equal(text.match(/"sealed_secrets"/g)?.length, 12, 'every user with a password has sealed secrets');
    assert.match(text.split('\n')[0]!, /^\{"type":"export","format":"gatehouse-users\/1"/);
    assert.equal(text.trimEnd().split('\n').at(-1), '{"type":"end"}');

    const destination = await seedProject(target);
    await assert.rejects(runImport(target, destination, [file], { GATEHOUSE_EXPORT_PASSPHRASE: 'the wrong passphrase' }), ConfigError);
    assert.equal((await usersOf(target, destination.admin)).length, 0, 'a wrong passphrase imports nothing');
    const imported = await runImport(target, destination, [file], { GATEHOUSE_EXPORT_PASSPHRASE: PASSPHRASE });
    assert.deepEqual({ ...imported, seconds: 0 }, { records: 14, created: 14, updated: 0, failed: 0, seconds: 0 });
    assert.deepEqual(await usersOf(target, destination.admin), before);

    for (const person of people.slice(1, 4)) {
      const ok = await api(target, 'POST', '/auth/password/sign-in', destination.client, person);
      assert.equal(ok.status, 200, ok.text);
    }
    const mfa = await api(target, 'POST', '/auth/password/sign-in', destination.client, people[0]);
    assert.equal(mfa.body.code, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', mfa.text);
    const second = await api(target, 'POST', '/auth/mfa/sign-in', destination.client, {
      type: 'totp',
      totp: generateTotp(TOTP_SECRET, target.clock.now()),
      code: mfa.body.details.attempt_code,
    });
    assert.equal(second.status, 200, second.text);

    // Importing the same file again updates, never duplicates.
    const again = await runImport(target, destination, [file], { GATEHOUSE_EXPORT_PASSPHRASE: PASSPHRASE });
    assert.deepEqual({ ...again, seconds: 0 }, { records: 14, created: 0, updated: 14, failed: 0, seconds: 0 });
  });

  it('without --include-secrets the file has no secrets and imports users without passwords', async () => {
    const server = get();
    const source = await seedProject(server);
    const u = await api(server, 'POST', '/users', source.admin, {
      primary_email: `plain-${dialect}@export.example.com`,
      password: 'Password-plain-1',
    });
    assert.equal(u.status, 201, u.text);
    const file = join(dir, `plain-${dialect}.ndjson`);
    await runExport(server, source, ['--out', file]);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.ok(!lines[1]!.includes('sealed_secrets') && !lines[1]!.includes('password'));
    assert.equal(JSON.parse(lines[0]!).secrets, null);
    await assert.rejects(
      runExportCommand(['--project', source.project.projectId, '--url', server.url, '--admin-key', 'wrong'], {}),
      /answered 401|answered 400|answered 403/,
    );
  });

  it('resumes after a connection cut in the middle of the stream, with no line lost or repeated', async () => {
    const server = get();
    const source = await seedProject(server);
    const emails = [];
    for (let i = 0; i < 60; i++) {
      const email = `resume${i}-${dialect}@export.example.com`;
      emails.push(email);
      assert.equal(
        (await api(server, 'POST', '/users', source.admin, { primary_email: email, display_name: 'x'.repeat(200) })).status,
        201,
      );
    }
    // A proxy that cuts the first export answer after 6 KB, in the middle of a line.
    let cuts = 0;
    const proxy: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const upstream = await fetch(`${server.url}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (req.url?.includes('/users/export') && cuts === 0) {
        cuts++;
        res.write(body.subarray(0, 6000));
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const file = join(dir, `resumed-${dialect}.ndjson`);
      const viaProxy = { ...server, url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}` } as TestServer;
      const summary = await runExport(viaProxy, source, ['--out', file]);
      assert.equal(cuts, 1);
      assert.equal(summary!.resumed, 1);
      assert.equal(summary!.users, 60);
      const users = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((r) => r.type === 'user');
      assert.deepEqual(users.map((r) => r.primary_email).sort(), emails.sort());
      assert.equal(new Set(users.map((r) => r.id)).size, 60);
    } finally {
      proxy.close();
    }
  });
});
