import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, it } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithServer } from '../test/helpers/suite.ts';
import { api, createInternalUser, createProject, createProjectKeys } from '../test/helpers/api.ts';
import { INTERNAL_KEYS, type TestServer } from '../test/helpers/server.ts';
import { ConfigError } from './config.ts';
import { detectFramework, mergeDotenv, runInitCommand } from './init-command.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** An empty app folder holding only package.json. */
function appFolder(pkg: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-init-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  return dir;
}

function readEnv(dir: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(join(dir, '.env.local'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

async function init(server: TestServer, dir: string, ...args: string[]) {
  let out = '';
  let err = '';
  const result = await runInitCommand(
    args,
    { GATEHOUSE_URL: server.url, GATEHOUSE_ADMIN_KEY: INTERNAL_KEYS.superSecretAdminKey },
    {
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
    },
    dir,
  );
  return { result: result!, out, err };
}

/** Signs a new user up and in through the API with the keys init wrote: proof the keys work. */
async function signInWith(server: TestServer, projectId: string, publishableClientKey: string) {
  const client = { projectId, accessType: 'client' as const, publishableClientKey };
  const email = `init-${randomUUID()}@example.com`;
  const signUp = await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'correct horse battery' });
  assert.equal(signUp.status, 200, signUp.text);
  const signIn = await api(server, 'POST', '/auth/password/sign-in', client, { email, password: 'correct horse battery' });
  assert.equal(signIn.status, 200, signIn.text);
  const me = await api(server, 'GET', '/users/me', { ...client, accessToken: signIn.body.access_token });
  assert.equal(me.body.primary_email, email);
}

describeWithServer('gatehouse init (issue 29)', (get) => {
  let owner: Awaited<ReturnType<typeof createInternalUser>> | undefined;
  const dashboardOwner = async () => (owner ??= await createInternalUser(get()));

  for (const [framework, deps, prefix, origin] of [
    ['vite', { devDependencies: { vite: '^6.0.0' } }, 'VITE_', 'http://localhost:5173'],
    ['next', { dependencies: { next: '^15.0.0', react: '^19.0.0' } }, 'NEXT_PUBLIC_', 'http://localhost:3000'],
  ] as const) {
    it(`in an empty ${framework} app folder: creates a project, writes ${prefix}… keys that sign a user in, and trusts ${origin}`, async () => {
      const { accessToken } = await dashboardOwner();
      const dir = appFolder({ name: `my-${framework}-app`, ...deps });
      const { result, out } = await init(get(), dir);
      assert.equal(result.framework, framework);
      const env = readEnv(dir);
      assert.deepEqual(
        Object.keys(env).sort(),
        [`${prefix}STACK_API_URL`, `${prefix}STACK_PROJECT_ID`, `${prefix}STACK_PUBLISHABLE_CLIENT_KEY`, 'STACK_SECRET_SERVER_KEY'].sort(),
      );
      assert.equal(env[`${prefix}STACK_API_URL`], get().url);
      assert.equal(env[`${prefix}STACK_PROJECT_ID`], result.projectId);
      assert.equal(statSync(join(dir, '.env.local')).mode & 0o777, 0o600, 'the file holding the secret key is private');
      await signInWith(get(), env[`${prefix}STACK_PROJECT_ID`]!, env[`${prefix}STACK_PUBLISHABLE_CLIENT_KEY`]!);
      const server = await api(get(), 'GET', '/users', {
        projectId: result.projectId,
        accessType: 'server',
        secretServerKey: env.STACK_SECRET_SERVER_KEY,
      });
      assert.equal(server.status, 200, 'the secret server key works');
      const project = await api(get(), 'GET', '/internal/projects/current', {
        projectId: result.projectId,
        accessType: 'admin',
        adminAccessToken: accessToken,
      });
      assert.equal(project.status, 200, 'the dashboard owner owns the new project');
      assert.equal(project.body.display_name, `my-${framework}-app`);
      assert.deepEqual(
        project.body.config.domains.map((d: { domain: string }) => d.domain),
        [origin],
      );
      assert.match(out, new RegExp(`${prefix}STACK_PUBLISHABLE_CLIENT_KEY`), 'the code to paste reads the env names written');
    });
  }

  it('picks an existing project with --project and its admin key, keeps other .env.local lines, and --print writes nothing', async () => {
    const p = await createProject(get());
    const keys = await createProjectKeys(get(), p.admin);
    const dir = appFolder({ name: 'api', dependencies: { express: '^5' } });
    writeFileSync(join(dir, '.env.local'), 'DATABASE_URL=postgres://x\nSTACK_PROJECT_ID=old\n');
    await init(get(), dir, '--project', p.projectId, '--admin-key', keys.superSecretAdminKey);
    const env = readEnv(dir);
    assert.equal(env.DATABASE_URL, 'postgres://x');
    assert.equal(env.STACK_PROJECT_ID, p.projectId, 'plain Node: no public prefix');
    await signInWith(get(), p.projectId, env.STACK_PUBLISHABLE_CLIENT_KEY!);
    const printed = appFolder({ name: 'printed', devDependencies: { vite: '6' } });
    const { out } = await init(get(), printed, '--project', p.projectId, '--admin-key', keys.superSecretAdminKey, '--print');
    assert.match(out, /^VITE_STACK_PROJECT_ID=/m);
    assert.throws(() => statSync(join(printed, '.env.local')));
    const project = await api(get(), 'GET', '/internal/projects/current', p.admin);
    assert.deepEqual(
      project.body.config.domains.map((d: { domain: string }) => d.domain),
      ['http://localhost:3000', 'http://localhost:5173'],
      'each origin trusted once',
    );
  });

  it('refuses a folder without package.json with a one-line error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-init-'));
    dirs.push(dir);
    await assert.rejects(init(get(), dir), (e: unknown) => e instanceof ConfigError && /no readable package\.json/.test(e.message));
  });
});

it('detects the framework from package.json and merges .env.local lines', () => {
  assert.equal(detectFramework({ dependencies: { next: '15' } }), 'next');
  assert.equal(detectFramework({ devDependencies: { vite: '6' } }), 'vite');
  assert.equal(detectFramework({ dependencies: { koa: '2' } }), 'node');
  assert.equal(mergeDotenv('A=1\nexport B=2\n', { B: '3', C: '4' }), 'A=1\nB=3\nC=4\n');
});
