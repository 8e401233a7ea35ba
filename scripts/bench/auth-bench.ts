// npm run bench:auth — accounts throughput on one machine:
//   password sign-ins/s, authenticated GET /users/me req/s and refreshes/s of a real Gatehouse
//   server on SQLite, each beside a bare node:http "ceiling" doing only the irreducible work:
//   one argon2id hash at the same parameters (sign-in), one jose ES256 verification of the same
//   access token (GET /users/me), one jose ES256 signature (refresh).
// Servers run in child processes (this file with --serve / --ceiling); autocannon runs here.
// Prints a Markdown table and, with --write, replaces the "Accounts" section of docs/benchmarks.md.
// Env: BENCH_SECONDS (per run, default 8).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { writeDocSection } from './doc-section.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECRET = 'bench-secret-not-for-production';
const PASSWORD = 'bench password 0123456789';
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
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  const gatehouse = await createGatehouse({
    storage: createSqliteAdapter({ filename: join(dir, 'gatehouse.db') }),
    baseUrl: `http://127.0.0.1:${port}`,
    secret: SECRET,
    environment: 'production',
    seedKeys: KEYS,
  });
  server.on('request', gatehouse.handler);
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write(`PORT ${port}\n`);
}

/** Child mode: bare node:http doing only the irreducible work of `kind`; prints `PORT <n>`. */
async function serveCeiling(kind: string): Promise<void> {
  const argon2 = (await import('argon2')).default;
  const { importJWK, jwtVerify, SignJWT } = await import('jose');
  const jwk = JSON.parse(process.env.BENCH_JWK ?? '{}');
  const publicKey = jwk.kty ? await importJWK(jwk, 'ES256') : null;
  const { privateKey } = await import('node:crypto').then((c) => c.generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  const server = createServer((req, res) => {
    const done = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    const work =
      kind === 'argon2'
        ? argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 }).then(() => '{"ok":true}')
        : kind === 'verify'
          ? jwtVerify(String(req.headers['x-stack-access-token']), publicKey!, { algorithms: ['ES256'] }).then((r) =>
              JSON.stringify({ id: r.payload.sub }),
            )
          : new SignJWT({ project_id: 'p', role: 'authenticated' })
              .setProtectedHeader({ alg: 'ES256' })
              .setSubject('u')
              .setIssuedAt()
              .setExpirationTime('10m')
              .sign(privateKey)
              .then((t) => JSON.stringify({ access_token: t }));
    req.resume();
    req.on('end', () => {
      work.then(
        (b) => done(200, b),
        (e: Error) => done(500, e.message),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  process.stdout.write(`PORT ${(server.address() as { port: number }).port}\n`);
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

function startChild(
  args: string[],
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /PORT (\d+)/.exec(out);
      if (m) ok({ url: `http://127.0.0.1:${m[1]}`, child });
    });
    child.once('exit', (code) => fail(new Error(`child ${args.join(' ')} exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  children.delete(child);
  child.kill('SIGTERM');
  await new Promise((ok) => child.once('exit', ok));
}

async function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** 2xx/s, latency (ms), failures, and the server process's CPU time per 2xx answer (µs, all threads). */
interface Run {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  cpuUs: number;
}

/** User + system CPU time of a process in µs, from /proc (Linux; clock ticks of 10 ms). */
function processCpuUs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

async function load(
  url: string,
  pid: number,
  opts: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; connections: number; seconds: number },
): Promise<Run> {
  const cpu0 = processCpuUs(pid);
  const result = await autocannon({
    url,
    method: opts.method,
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections,
    duration: opts.seconds,
  });
  const ok = result['2xx'];
  return {
    rps: ok / opts.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuUs: (processCpuUs(pid) - cpu0) / Math.max(1, ok),
  };
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  const cores = cpus().length;
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-auth-bench-'));
  const log = (m: string) => process.stderr.write(`[bench:auth] ${m}\n`);
  try {
    // BENCH_PROFILE=<dir> writes a V8 CPU profile of the Gatehouse server there (on SIGTERM exit).
    const gh = await startChild(
      ['--serve', dir],
      {},
      process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
    );
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
    // A project of its own, as an app would have (owner: a fresh internal user), with real keys.
    const owner = await call(gh.url, 'POST', '/users', internalServer, {});
    const ownerSession = await call(gh.url, 'POST', '/auth/sessions', internalServer, { user_id: owner.id });
    const ownerMe = await call(gh.url, 'GET', '/users/me', { ...internalClient, 'x-stack-access-token': ownerSession.access_token });
    const project = await call(
      gh.url,
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
    const keys = await call(gh.url, 'POST', '/internal/api-keys', admin, {
      description: 'bench',
      expires_at_millis: null,
      has_publishable_client_key: true,
      has_secret_server_key: false,
      has_super_secret_admin_key: false,
    });
    const client = {
      'x-stack-project-id': project.id,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': keys.publishable_client_key,
    };
    const signUp = await call(gh.url, 'POST', '/auth/password/sign-up', client, { email: 'bench@example.com', password: PASSWORD });
    const jwks = (await fetch(`${gh.url}/api/v1/projects/${project.id}/.well-known/jwks.json`).then((r) => r.json())) as {
      keys: Array<{ kid: string }>;
    };
    const [headerB64] = signUp.access_token.split('.');
    const kid = JSON.parse(Buffer.from(headerB64, 'base64url').toString()).kid;
    const jwk = jwks.keys.find((k) => k.kid === kid);

    // BENCH_ONLY=signin,me,refresh runs a subset (for profiling); skipped rows show 0.
    const only = new Set((process.env.BENCH_ONLY ?? 'signin,me,refresh').split(','));
    const skipped: Run = { rps: 0, p50: 0, p99: 0, non2xx: 0, cpuUs: NaN };
    log(`sign-in (${seconds} s, 8 connections)…`);
    const signIn = !only.has('signin')
      ? skipped
      : await load(`${gh.url}/api/v1/auth/password/sign-in`, gh.child.pid!, {
          method: 'POST',
          headers: { ...client, 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }),
          connections: 8,
          seconds,
        });
    log(`GET /users/me (${seconds} s, 50 connections)…`);
    const me = !only.has('me')
      ? skipped
      : await load(`${gh.url}/api/v1/users/me`, gh.child.pid!, {
          method: 'GET',
          headers: { ...client, 'x-stack-access-token': signUp.access_token },
          connections: 50,
          seconds,
        });
    log(`refresh (${seconds} s, 50 connections)…`);
    const refresh = !only.has('refresh')
      ? skipped
      : await load(`${gh.url}/api/v1/auth/sessions/current/refresh`, gh.child.pid!, {
          method: 'POST',
          headers: { ...client, 'x-stack-refresh-token': signUp.refresh_token },
          connections: 50,
          seconds,
        });
    await stop(gh.child);

    const ceilings: Record<string, Run> = {};
    if (process.env.BENCH_ONLY) Object.assign(ceilings, { argon2: skipped, verify: skipped, sign: skipped });
    else
      for (const [kind, connections, headers] of [
        ['argon2', 8, {}],
        ['verify', 50, { 'x-stack-access-token': signUp.access_token }],
        ['sign', 50, {}],
      ] as const) {
        const c = await startChild(['--ceiling', kind], { BENCH_JWK: JSON.stringify(jwk) });
        log(`ceiling ${kind} (${seconds} s, ${connections} connections)…`);
        ceilings[kind] = await load(`${c.url}/`, c.child.pid!, {
          method: kind === 'verify' ? 'GET' : 'POST',
          headers,
          connections,
          seconds,
        });
        await stop(c.child);
      }

    const fmt = (r: Run) => `${r.rps.toFixed(r.rps < 100 ? 1 : 0)} (${r.p50} / ${r.p99}); ${Math.round(r.cpuUs)} µs CPU`;
    const pct = (a: Run, b: Run) =>
      `${Math.round((a.rps / b.rps) * 100)}% by req/s; ${Math.round((b.cpuUs / a.cpuUs) * 100)}% by CPU per request`;
    const rows = [
      [
        'Password sign-in (`POST /auth/password/sign-in`)',
        '8',
        fmt(signIn),
        fmt(ceilings.argon2!),
        pct(signIn, ceilings.argon2!),
        `≥ 20/s per core: ${(signIn.rps / cores).toFixed(1)}/s per core by req/s ÷ ${cores} cores (${signIn.rps / cores >= 20 ? 'met' : '**not met**'}); ${(1e6 / signIn.cpuUs).toFixed(1)} per CPU-second (${1e6 / signIn.cpuUs >= 20 ? 'met' : '**not met**'})`,
      ],
      [
        'Authenticated `GET /users/me` (client, access token)',
        '50',
        fmt(me),
        fmt(ceilings.verify!),
        pct(me, ceilings.verify!),
        `target ≥ 60% of the ceiling: by req/s ${me.rps / ceilings.verify!.rps >= 0.6 ? 'met' : '**not met**'}; by CPU per request ${ceilings.verify!.cpuUs / me.cpuUs >= 0.6 ? 'met' : '**not met**'}`,
      ],
      [
        'Refresh (`POST /auth/sessions/current/refresh`)',
        '50',
        fmt(refresh),
        fmt(ceilings.sign!),
        pct(refresh, ceilings.sign!),
        `target ≥ 1,000/s: ${refresh.rps >= 1000 ? 'met' : '**not met**'}`,
      ],
    ];
    const failures = [signIn, me, refresh].reduce((n, r) => n + r.non2xx, 0);
    const now = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const section = [
      '## Accounts',
      '',
      `Measured ${now} UTC with \`npm run bench:auth -- --write\` (\`node --import tsx scripts/bench/auth-bench.ts --write\`, ${seconds} s per run, autocannon in the bench process; servers in child processes on the same machine: ${cores} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}).`,
      '',
      "Gatehouse: `createGatehouse` on `node:http`, SQLite file, production mode, a fresh project with a publishable key. Ceilings: bare `node:http` doing only the irreducible work: one argon2id hash at m=19456 KiB, t=2, p=1 (sign-in); jose `jwtVerify` of the same ES256 access token (`/users/me`); one jose ES256 signature (refresh). Gatehouse checks an access token's signature once per token and remembers the result for the token's lifetime (expiry is still checked on every request), and caches project and key lookups for 1 s; the ceiling verifies on every request.",
      '',
      "Each cell: 2xx responses/s (p50 / p99 latency in ms); the server process's CPU time (user + system, all threads, from /proc) per 2xx response. CPU per request is the steadier figure when the machine is shared: req/s moves with whatever else runs.",
      '',
      '| Scenario | Connections | Gatehouse | Ceiling | Gatehouse / ceiling | Target |',
      '|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      `Non-2xx answers or errors during the Gatehouse runs: ${failures}.`,
    ].join('\n');
    process.stdout.write(`${section}\n`);
    if (process.argv.includes('--write')) writeSection(section);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Replaces (or appends) the marked "Accounts" section of docs/benchmarks.md, leaving the rest. */
function writeSection(section: string): void {
  const start = '<!-- bench:auth:start (written by npm run bench:auth -- --write; edit scripts/bench/auth-bench.ts instead) -->';
  writeDocSection('auth', `${start}\n${section}\n<!-- bench:auth:end -->`);
}

const mode = process.argv[2];
if (mode === '--serve') await serveGatehouse(process.argv[3]!);
else if (mode === '--ceiling') await serveCeiling(process.argv[3]!);
else
  await main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
