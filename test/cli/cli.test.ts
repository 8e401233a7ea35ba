import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, testDialects } from '../helpers/dialects.ts';
import { GATEHOUSE_CLI } from '../helpers/gatehouse-cli.ts';

const [NODE, CLI] = GATEHOUSE_CLI as [string, string];
const KEYS = {
  GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY: 'pck_cli_test_0123456789abcdefghijklmnopqrstuvwxyz0123',
  GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY: 'ssk_cli_test_0123456789abcdefghijklmnopqrstuvwxyz0123',
  GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY: 'sak_cli_test_0123456789abcdefghijklmnopqrstuvwxyz0123',
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Runs the CLI to completion (for commands that exit), collecting output; killed after `timeoutMs` (generous: a loaded machine). */
function run(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the CLI as a server and resolves once it answers GET /api/v1. */
async function startCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const port = await freePort();
  const child = spawn(NODE, [CLI, '--port', String(port), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  child.stdout!.resume();
  const url = `http://127.0.0.1:${port}`;
  // Up to 90 s: a loaded shared machine can take many seconds to start the CLI.
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    try {
      const res = await fetch(`${url}/api/v1`);
      if (res.ok) return { child, url, stderr: () => stderr };
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${stderr}`);
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

function assertOneLineError(result: { code: number | null; stderr: string }, pattern: RegExp) {
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stderr
    .trim()
    .split('\n')
    .filter((l) => !l.includes('ExperimentalWarning') && !l.includes('--trace-warnings'));
  assert.equal(lines.length, 1, `expected one line, got:\n${result.stderr}`);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
}

describe('the gatehouse command', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('prints usage with --help and exits 0', async () => {
    const r = await run(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--port/);
    assert.match(r.stdout, /GATEHOUSE_DATABASE_URL/);
  });

  it('refuses an unknown flag and a bad port with one line, no stack trace', async () => {
    assertOneLineError(await run(['--bogus']), /bogus/);
    assertOneLineError(await run(['--port', 'eighty']), /port/i);
  });

  it('reports a busy port in one line', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const r = await run(['--port', String(port), '--data-dir', tempDir()], KEYS);
    blocker.close();
    assertOneLineError(r, /already in use/);
  });

  it('reports an unreachable database in one line', async () => {
    assertOneLineError(
      await run(['--database-url', 'postgres://postgres@127.0.0.1:1/none', '--port', String(await freePort())]),
      /database/i,
    );
  });

  it('creates its data dir, prints the keys once, and keeps users and keys across a restart', async () => {
    const dir = join(tempDir(), 'data');
    const first = await startCli(['--data-dir', dir]);
    assert.match(first.stderr(), /STACK_SECRET_SERVER_KEY=ssk_/);
    const serverKey = /STACK_SECRET_SERVER_KEY=(ssk_\S+)/.exec(first.stderr())![1]!;
    const headers = {
      'content-type': 'application/json',
      'x-stack-project-id': 'internal',
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': serverKey,
    };
    const created = await fetch(`${first.url}/api/v1/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ primary_email: 'keep@example.com' }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    assert.equal(await stop(first.child), 0);

    const second = await startCli(['--data-dir', dir]);
    assert.doesNotMatch(second.stderr(), /STACK_SECRET_SERVER_KEY=/, 'keys are printed only on first start');
    const again = await fetch(`${second.url}/api/v1/users/me`, { headers });
    assert.equal(again.headers.get('x-stack-known-error'), 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    const session = await fetch(`${second.url}/api/v1/auth/sessions`, { method: 'POST', headers, body: JSON.stringify({ user_id: id }) });
    assert.equal(session.status, 200, 'the user and the server key survived the restart');
    assert.equal(await stop(second.child), 0);
  });

  it("pulls a project's branch config to a file and pushes an edited file back to a running server (config pull / push)", async () => {
    const server = await startCli(['--data-dir', tempDir()], KEYS);
    try {
      const file = join(tempDir(), 'gatehouse.config.json');
      const auth = [
        '--project',
        'internal',
        '--url',
        server.url,
        '--admin-key',
        KEYS.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY,
        '--file',
        file,
      ];
      const pulled = await run(['config', 'pull', ...auth]);
      assert.equal(pulled.code, 0, pulled.stderr);
      const content = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      assert.equal(typeof content, 'object');
      writeFileSync(
        file,
        JSON.stringify(
          { ...content, 'teams.allowClientTeamCreation': true, 'dataVault.stores.cli': { displayName: 'From the CLI' } },
          null,
          2,
        ),
      );
      const pushed = await run(['config', 'push', ...auth]);
      assert.equal(pushed.code, 0, pushed.stderr);

      const headers = {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'admin',
        'x-stack-super-secret-admin-key': KEYS.GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY,
      };
      const config = JSON.parse(
        ((await (await fetch(`${server.url}/api/v1/internal/config`, { headers })).json()) as { config_string: string }).config_string,
      );
      assert.equal(config.teams.allowClientTeamCreation, true);
      assert.deepEqual(config.dataVault.stores.cli, { displayName: 'From the CLI' });
      const project = (await (await fetch(`${server.url}/api/v1/internal/projects/current`, { headers })).json()) as {
        config: { client_team_creation_enabled: boolean };
      };
      assert.equal(project.config.client_team_creation_enabled, true, 'the legacy view shows the pushed value');
      assert.deepEqual(await (await fetch(`${server.url}/api/v1/internal/config/source`, { headers })).json(), {
        source: { type: 'pushed-from-unknown' },
      });

      const again = await run(['config', 'pull', ...auth]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(JSON.parse(readFileSync(file, 'utf8'))['teams.allowClientTeamCreation'], true);

      writeFileSync(file, JSON.stringify({ 'auth.nope': true }));
      assertOneLineError(await run(['config', 'push', ...auth]), /The key "auth\.nope" is not valid/);
      assertOneLineError(
        await run(['config', 'push', '--project', 'internal', '--url', server.url, '--admin-key', 'sak_wrong', '--file', file]),
        /answered 401/,
      );
      assertOneLineError(
        await run(['config', 'pull', '--file', file], { STACK_PROJECT_ID: '', STACK_SUPER_SECRET_ADMIN_KEY: '' }),
        /--project is required/,
      );
    } finally {
      assert.equal(await stop(server.child), 0);
    }
  });

  if (testDialects().includes('postgres')) {
    it('runs the same server on PostgreSQL from GATEHOUSE_DATABASE_URL', async () => {
      const db = await createTestDatabase('postgres');
      try {
        const server = await startCli(['--data-dir', tempDir()], { ...KEYS, GATEHOUSE_DATABASE_URL: db.databaseUrl });
        const res = await fetch(`${server.url}/api/v1/projects/current`, {
          headers: {
            'x-stack-project-id': 'internal',
            'x-stack-access-type': 'server',
            'x-stack-secret-server-key': KEYS.GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY,
          },
        });
        assert.equal(res.status, 200);
        assert.match(server.stderr(), /PostgreSQL/);
        assert.equal(await stop(server.child), 0);
      } finally {
        await db.drop();
      }
    });
  }
});
