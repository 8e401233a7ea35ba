// npm run bench:instructions — CPU instructions per authenticated read, independent of machine load.
//   Starts a real Gatehouse server (SQLite file, production mode, a fresh project with a
//   publishable key, one signed-in user) under `valgrind --tool=callgrind` with instrumentation
//   off and V8 single-threaded (`--single-threaded`: compilation and GC on the main thread, so
//   the count does not depend on how background threads were scheduled), warms it with
//   uninstrumented GET /users/me requests (so V8 has optimised the hot path), collects garbage,
//   then switches instrumentation on (`callgrind_control -i on`), zeroes the counters, issues
//   N more GET /users/me one at a time over one keep-alive connection, dumps and reports the
//   server process's instructions divided by N.
// Instruction counts do not move with what else the machine runs, so two commits can be compared
// on a shared machine; they are an upper bound of the work (JIT compilation during the measured
// requests counts too) and about 1% noisy between runs.
// Env: BENCH_REQUESTS (measured, default 300), BENCH_WARMUP (default 1500).
// With --write, replaces the "Instructions per request" section of docs/benchmarks.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'node:http';
import { writeDocSection } from './doc-section.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KEYS = {
  publishableClientKey: 'pck_bench_internal_publishable_key_0123456789abcdefghijk',
  secretServerKey: 'ssk_bench_internal_secret_server_key_0123456789abcdefghij',
  superSecretAdminKey: 'sak_bench_internal_super_secret_admin_key_0123456789abcd',
};

/** Child mode: the real Gatehouse server on a fresh SQLite file; prints `PORT <n>`. */
async function serveGatehouse(dir: string): Promise<void> {
  const { createGatehouse } = await import('../../server-bin/index.ts');
  const { createSqliteAdapter } = await import('../../adapters/sqlite/index.ts');
  const server = createServer();
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  const gatehouse = await createGatehouse({
    storage: createSqliteAdapter({ filename: join(dir, 'gatehouse.db') }),
    baseUrl: `http://127.0.0.1:${port}`,
    secret: 'bench-secret-not-for-production',
    environment: 'production',
    seedKeys: KEYS,
  });
  server.on('request', gatehouse.handler);
  process.on('SIGTERM', () => process.exit(0));
  // The parent asks for a full collection before it starts counting (node --expose-gc).
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    process.stdout.write('GC done\n');
  });
  process.stdout.write(`PORT ${port}\n`);
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request over the shared keep-alive connection; resolves with status and parsed JSON body. */
function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((ok, fail) => {
    const req = request(
      `${url}/api/v1${path}`,
      { method, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => {
            text += d;
          })
          .on('end', () => {
            if ((res.statusCode ?? 500) >= 300) fail(new Error(`${method} ${path} → ${res.statusCode} ${text}`));
            else ok(JSON.parse(text));
          });
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

function callgrindControl(pid: number, ...args: string[]): void {
  const r = spawnSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`callgrind_control ${args.join(' ')}: ${r.stderr || r.stdout}`);
}

async function main(): Promise<void> {
  const n = Number(process.env.BENCH_REQUESTS ?? 300);
  const warmup = Number(process.env.BENCH_WARMUP ?? 1500);
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-instr-bench-'));
  const log = (m: string) => process.stderr.write(`[bench:instructions] ${m}\n`);
  let child: ChildProcess | undefined;
  try {
    const out = join(dir, 'callgrind.out');
    child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--instr-atstart=no',
        `--callgrind-out-file=${out}`,
        process.execPath,
        '--single-threaded',
        '--expose-gc',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--serve',
        dir,
      ],
      { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    log('starting the server under valgrind…');
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      text += d;
    });
    const waitFor = (re: RegExp) =>
      new Promise<RegExpExecArray>((ok, fail) => {
        const poll = setInterval(() => {
          const m = re.exec(text);
          if (m) {
            clearInterval(poll);
            ok(m);
          }
        }, 50);
        child!.once('exit', (code) => {
          clearInterval(poll);
          fail(new Error(`server exited with ${code}\n${stderr.slice(-2000)}`));
        });
      });
    const url = await waitFor(/PORT (\d+)/).then((m) => `http://127.0.0.1:${m[1]}`);
    const pid = child.pid!;

    const internalServer = {
      'x-stack-project-id': 'internal',
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': KEYS.secretServerKey,
    };
    const internalClient = {
      'x-stack-project-id': 'internal',
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': KEYS.publishableClientKey,
    };
    const owner = await call(url, 'POST', '/users', internalServer, {});
    const ownerSession = await call(url, 'POST', '/auth/sessions', internalServer, { user_id: owner.id });
    const ownerMe = await call(url, 'GET', '/users/me', { ...internalClient, 'x-stack-access-token': ownerSession.access_token });
    const project = await call(
      url,
      'POST',
      '/internal/projects',
      { ...internalClient, 'x-stack-access-token': ownerSession.access_token },
      {
        display_name: 'Bench',
        owner_team_id: ownerMe.selected_team_id,
        config: { credential_enabled: true, rate_limits: { enabled: false } },
      },
    );
    const admin = {
      'x-stack-project-id': project.id,
      'x-stack-access-type': 'admin',
      'x-stack-admin-access-token': ownerSession.access_token,
    };
    const keys = await call(url, 'POST', '/internal/api-keys', admin, {
      description: 'bench',
      expires_at_millis: null,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: false,
    });
    const server = {
      'x-stack-project-id': project.id,
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': keys.secret_server_key,
    };
    const user = await call(url, 'POST', '/users', server, { primary_email: 'bench@example.com', primary_email_auth_enabled: true });
    const session = await call(url, 'POST', '/auth/sessions', server, { user_id: user.id });
    const me = {
      'x-stack-project-id': project.id,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': keys.publishable_client_key,
      'x-stack-access-token': session.access_token,
    };

    log(`warming with ${warmup} uninstrumented GET /users/me…`);
    for (let i = 0; i < warmup; i++) await call(url, 'GET', '/users/me', me);
    // valgrind runs the program as its child's pid on Linux (exec), so the signal reaches node.
    process.kill(pid, 'SIGUSR2');
    await waitFor(/GC done/);
    callgrindControl(pid, '--instr=on');
    callgrindControl(pid, '--zero');
    log(`measuring ${n} GET /users/me under callgrind…`);
    for (let i = 0; i < n; i++) {
      const body = await call(url, 'GET', '/users/me', me);
      if (body.id !== user.id) throw new Error('GET /users/me answered another user');
    }
    callgrindControl(pid, '--dump=measured');
    const dumps = readdirSync(dir)
      .filter((f) => f.startsWith('callgrind.out'))
      .map((f) => join(dir, f))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    const dump = dumps
      .map((f) => readFileSync(f, 'utf8'))
      .find((t) => /^desc: Trigger: .*measured/m.test(t) || /dump=measured|measured/.test(t.slice(0, 2000)));
    const total = Number(/^(?:summary|totals): (\d+)/m.exec(dump ?? '')?.[1]);
    if (!Number.isFinite(total) || total === 0) throw new Error(`no callgrind totals in ${dumps.join(', ')}`);
    const perRequest = Math.round(total / n);
    const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
    const line = `GET /api/v1/users/me (client, access token): ${perRequest.toLocaleString('en-US')} instructions/request (${n} requests after ${warmup} warm-up; commit ${commit}; valgrind ${spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).stdout.trim()}, Node ${process.version})`;
    process.stdout.write(`${line}\n`);
    if (process.argv.includes('--write')) {
      const start =
        '<!-- bench:instructions:start (written by npm run bench:instructions -- --write; edit scripts/bench/request-instructions.ts instead) -->';
      writeDocSection(
        'instructions',
        `${start}\n## Instructions per request (latest run)\n\nMeasured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench:instructions\`:\n\n${line}\n<!-- bench:instructions:end -->`,
      );
    }
  } finally {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((ok) => child!.once('exit', ok));
    }
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') await serveGatehouse(process.argv[3]!);
else await main();
