import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithServer } from '../test/helpers/suite.ts';
import { api, createProject, createProjectKeys } from '../test/helpers/api.ts';
import type { TestServer } from '../test/helpers/server.ts';
import { ConfigError } from './config.ts';
import { runConfigCommand } from './config-command.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh project with admin keys and a config file path, and `config` run in-process against the server. */
async function setUp(server: TestServer) {
  const project = await createProject(server);
  const keys = await createProjectKeys(server, project.admin);
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-config-'));
  dirs.push(dir);
  const file = join(dir, 'gatehouse.config.json');
  const run = async (...args: string[]) => {
    let out = '';
    let err = '';
    await runConfigCommand(
      [...args, '--project', project.projectId, '--url', server.url, '--admin-key', keys.superSecretAdminKey, '--file', file],
      {},
      {
        out: (t) => {
          out += t;
        },
        err: (t) => {
          err += t;
        },
      },
    );
    return { out, err };
  };
  const levels = async () =>
    Object.fromEntries(
      await Promise.all(
        ['project', 'branch', 'environment'].map(async (l) => [
          l,
          (await api(server, 'GET', `/internal/config/override/${l}`, project.admin)).body.config_string,
        ]),
      ),
    );
  const rendered = async () => JSON.parse((await api(server, 'GET', '/internal/config', project.admin)).body.config_string);
  const readFile = () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return { ...project, file, run, levels, rendered, readFile };
}

describeWithServer('config as code: gatehouse config pull / push (issue 29)', (get) => {
  it("pulls a fresh project's own starting values at the branch level (not {}), with --levels naming each key's level", async () => {
    const p = await setUp(get());
    const { out } = await p.run('pull', '--levels');
    const file = p.readFile();
    assert.equal(file['domains.allowLocalhost'], true);
    assert.equal(file['auth.password.allowSignIn'], true);
    assert.equal(file['rbac.defaultPermissions.teamCreator.team_admin'], true);
    assert.match(out, /^domains\.allowLocalhost\s+branch\s+true$/m);
    assert.deepEqual(
      JSON.parse((await api(get(), 'GET', '/internal/config/override/environment', p.admin)).body.config_string),
      {},
      'nothing of a fresh project shadows a file',
    );
  });

  it('pull then push of an unedited file is a no-op: no override level changes', async () => {
    const p = await setUp(get());
    await api(get(), 'PATCH', '/internal/projects/current', p.admin, { config: { client_team_creation_enabled: true } });
    await p.run('pull');
    const before = await p.levels();
    const { err, out } = await p.run('push');
    assert.match(err, /No changes/);
    assert.equal(out, '');
    assert.deepEqual(await p.levels(), before);
  });

  it("pushes a change of a fresh project's starting value (allowLocalhost) and shows the diff first", async () => {
    const p = await setUp(get());
    await p.run('pull');
    writeFileSync(p.file, JSON.stringify({ ...p.readFile(), 'domains.allowLocalhost': false }));
    const dry = await p.run('push', '--dry-run');
    assert.match(dry.out, /~ domains\.allowLocalhost: true → false/);
    assert.equal((await p.rendered()).domains.allowLocalhost, true, 'a dry run writes nothing');
    const pushed = await p.run('push');
    assert.match(pushed.out, /~ domains\.allowLocalhost: true → false/);
    assert.equal((await p.rendered()).domains.allowLocalhost, false);
  });

  it('refuses a push that changes a dashboard-set key, naming the environment level; --force applies it', async () => {
    const p = await setUp(get());
    const patched = await api(get(), 'PATCH', '/internal/projects/current', p.admin, { config: { client_team_creation_enabled: true } });
    assert.equal(patched.status, 200, patched.text);
    await p.run('pull', '--levels');
    assert.equal(p.readFile()['teams.allowClientTeamCreation'], true, "pull shows the dashboard's value");
    writeFileSync(
      p.file,
      JSON.stringify({ ...p.readFile(), 'teams.allowClientTeamCreation': false, 'users.allowClientUserDeletion': true }),
    );
    await assert.rejects(
      p.run('push'),
      (e: unknown) => e instanceof ConfigError && /teams\.allowClientTeamCreation is set at the environment level/.test(e.message),
    );
    let config = await p.rendered();
    assert.equal(config.teams.allowClientTeamCreation, true);
    assert.equal(config.users.allowClientUserDeletion, false, 'a refused push writes nothing');
    await p.run('push', '--force');
    config = await p.rendered();
    assert.equal(config.teams.allowClientTeamCreation, false);
    assert.equal(config.users.allowClientUserDeletion, true);
    const project = await api(get(), 'GET', '/internal/projects/current', p.admin);
    assert.equal(project.body.config.client_team_creation_enabled, false, 'the legacy view follows');
  });

  it('refuses a file with an unknown key before anything is written', async () => {
    const p = await setUp(get());
    writeFileSync(p.file, JSON.stringify({ 'auth.nope': true }));
    await assert.rejects(p.run('push'), /The key "auth\.nope" is not valid/);
  });
});
