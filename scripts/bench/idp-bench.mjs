#!/usr/bin/env node
// npm run bench:idp — the identity provider's token endpoint under load (issue 31): client-credentials
// grants/s and refresh-token grants/s of `gatehouse --workers 2` (BENCH_WORKERS), on SQLite and on
// PostgreSQL (BENCH_POSTGRES_URL; "none" skips it; BENCH_IDP_SQLITE=none skips SQLite), the server being `npm start`'s bundle
// (dist/server/cli.js, rebuilt when stale).
//
// - client credentials: one confidential client (`client_secret_basic`) asking for a resource's
//   JWT access token (RFC 9068, ES256), the same form every time: through wrk when it is there
//   (scripts/bench/wrk.mjs, a fraction of autocannon's CPU), else autocannon;
// - refresh: BENCH_IDP_CONNECTIONS connections each rotating its own chain of refresh tokens
//   (each answer's refresh_token is the next request's), minted first through the authorization
//   code flow (PKCE, a skip_consent client, the hosted sign-in's session cookie), one request at a
//   time per connection (Node's fetch);
// Each run lasts BENCH_DURATION seconds (default 10) after a 2 s warm-up, so the whole bench takes
// about a minute and a half. BENCH_IDP_ONLY=cc|refresh runs one scenario; BENCH_IDP_PROFILE=<dir> has
// the server processes write CPU profiles (node --cpu-prof) there. Prints grants/s per database with the 1-minute load average, and
// with --write replaces the "Identity provider" block of docs/benchmarks.md.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { writeDocSection } from './doc-section.mjs';
import { freePort, postgresDatabases } from './harness.mjs';
import { runWrk, wrkAvailable } from './wrk.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKERS = process.env.BENCH_WORKERS ?? '2';
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_IDP_CONNECTIONS ?? 50);
/** BENCH_IDP_PROFILE=<dir>: the server processes write V8 CPU profiles there (node --cpu-prof). */
const PROFILE_DIR = process.env.BENCH_IDP_PROFILE;
/** BENCH_IDP_ONLY=cc|refresh: one scenario only. */
const ONLY = process.env.BENCH_IDP_ONLY;
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGETS = { cc: 1000, refresh: 500 };
const ADMIN_KEY = 'sak_bench_internal_super_secret_admin_key_0123456789abcd';
const SERVER_KEY = 'ssk_bench_internal_secret_server_key_0123456789abcdefghij';
const KEYS = {
  GATEHOUSE_SEED_INTERNAL_PUBLISHABLE_CLIENT_KEY: 'pck_bench_internal_publishable_key_0123456789abcdefghijk',
  GATEHOUSE_SEED_INTERNAL_SECRET_SERVER_KEY: SERVER_KEY,
  GATEHOUSE_SEED_INTERNAL_SUPER_SECRET_ADMIN_KEY: ADMIN_KEY,
};
const REDIRECT = 'http://127.0.0.1:9/callback';
const RESOURCE = 'https://api.bench.example';
const started = Date.now();
const log = (msg) => process.stderr.write(`[bench:idp ${Math.round((Date.now() - started) / 1000)}s] ${msg}\n`);
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** `gatehouse --workers n` on a fresh data folder (SQLite) or `databaseUrl`; resolves once it answers. */
async function startGatehouse(databaseUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-idp-'));
  const port = await freePort();
  const args = [
    ...(PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : []),
    join(root, 'dist', 'server', 'cli.js'),
    '--workers',
    WORKERS,
    '--port',
    String(port),
  ];
  if (databaseUrl) args.push('--database-url', databaseUrl);
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { HOME: dir, PATH: process.env.PATH, ...KEYS },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    err += d;
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    children.delete(child);
  });
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (exited) throw new Error(`gatehouse exited before answering:\n${err}`);
    if (Date.now() - t0 > 120_000) throw new Error(`gatehouse did not answer within 120 s:\n${err}`);
    try {
      const res = await fetch(`${url}/api/v1`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      const done = new Promise((ok) => child.once('exit', ok));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function call(url, method, path, access, body) {
  const key = access === 'admin' ? { 'x-stack-super-secret-admin-key': ADMIN_KEY } : { 'x-stack-secret-server-key': SERVER_KEY };
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-stack-project-id': 'internal', 'x-stack-access-type': access, ...key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Turns the identity provider on for the internal project (throttling off: throughput is measured) and registers the two clients. */
async function setup(url) {
  await call(url, 'PATCH', '/internal/projects/current', 'admin', { config: { rate_limits: { enabled: false } } });
  await call(url, 'PATCH', '/internal/config/override/branch', 'admin', {
    config_override_string: JSON.stringify({ 'oidc.enabled': true, 'oidc.scopes': ['bench:read'] }),
  });
  const service = await call(url, 'POST', '/internal/oauth-clients', 'admin', {
    client_name: 'Bench service',
    grant_types: ['client_credentials'],
    scope: 'bench:read',
  });
  const app = await call(url, 'POST', '/internal/oauth-clients', 'admin', {
    client_name: 'Bench app',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    scope: 'openid offline_access',
    skip_consent: true,
  });
  return { service, app, issuer: `${url}/api/v1/projects/internal/oidc` };
}

const basic = (client) =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;

/** One refresh token through the code flow: a user, their hosted-pages session cookie, PKCE, redirects followed by hand. */
async function mintRefreshToken(url, { app, issuer }, i) {
  const user = await call(url, 'POST', '/users', 'server', { primary_email: `idp-bench-${i}-${Date.now()}@example.com` });
  const session = await call(url, 'POST', '/auth/sessions', 'server', { user_id: user.id, expires_in_millis: 3_600_000 });
  const cookies = new Map([['gatehouse-refresh-internal', session.refresh_token]]);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  let next = `${issuer}/auth?${new URLSearchParams({
    client_id: app.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid offline_access',
    prompt: 'consent',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;
  for (let hop = 0; hop < 12 && !next.startsWith(REDIRECT); hop++) {
    if (next.includes('/handler/sign-in')) next = new URL(new URL(next).searchParams.get('after_auth_return_to'), url).href;
    const res = await fetch(next, { redirect: 'manual', headers: { cookie: [...cookies].map(([n, v]) => `${n}=${v}`).join('; ') } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`authorization stopped at ${next}: ${res.status} ${await res.text()}`);
    next = new URL(location, next).href;
  }
  const code = new URL(next).searchParams.get('code');
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(app) },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
  });
  const tokens = await res.json();
  if (!tokens.refresh_token) throw new Error(`no refresh token: ${JSON.stringify(tokens)}`);
  return tokens.refresh_token;
}

/** Client-credentials grants for `seconds`: the same request each time (JWT access token for RESOURCE). */
async function clientCredentials(ctx, seconds) {
  const url = `${ctx.issuer}/token`;
  const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(ctx.service) };
  const body = `grant_type=client_credentials&scope=bench%3Aread&resource=${encodeURIComponent(RESOURCE)}`;
  return summary(await runWrkOrAutocannon({ url, method: 'POST', headers, body, connections: CONNECTIONS, seconds }), seconds);
}

/** One fixed request at `connections` for `seconds`: wrk when available, else autocannon. */
function runWrkOrAutocannon({ url, method = 'GET', headers = {}, body, connections, seconds }) {
  return wrkAvailable()
    ? runWrk({ url, method, headers, body, connections, seconds })
    : autocannon({ url, method, headers, body, connections, duration: seconds, timeout: 30 });
}

/**
 * Refresh grants for `seconds`: CONNECTIONS loops, each rotating its own chain one request at a
 * time (the answer's refresh_token is the next request's; autocannon builds a request before the
 * previous answer arrives, which would replay rotated tokens). A refused grant takes a fresh
 * token from the pool.
 */
async function refreshGrants(ctx, pool, seconds) {
  const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(ctx.app) };
  const latencies = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      let token = pool.pop();
      while (token && performance.now() < end) {
        const t0 = performance.now();
        const res = await fetch(`${ctx.issuer}/token`, {
          method: 'POST',
          headers,
          body: `grant_type=refresh_token&refresh_token=${token}`,
        });
        const body = await res.text();
        if (performance.now() > end) break;
        if (res.status === 200) {
          latencies.push(performance.now() - t0);
          token = JSON.parse(body).refresh_token;
        } else {
          failed++;
          token = pool.pop();
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { rps: latencies.length / seconds, ok: latencies.length, failed, p50: at(0.5), p99: at(0.99) };
}

/** CPU time (user + system) of process `pid` and its children (the workers), in ms (Linux /proc, 10 ms ticks). */
function treeCpuMs(pid) {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fields;
    try {
      fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
    } catch {
      continue;
    }
    if (Number(entry) === pid || Number(fields[1]) === pid) total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}

/** Runs `run` and adds the server's CPU milliseconds per successful grant (what an idle machine's capacity follows from). */
async function withCpu(pid, run) {
  const before = treeCpuMs(pid);
  const result = await run();
  return { ...result, cpuMsPerGrant: result.ok > 0 ? (treeCpuMs(pid) - before) / result.ok : 0 };
}

function summary(r, seconds) {
  return { rps: r['2xx'] / seconds, ok: r['2xx'], failed: r.non2xx + r.errors, p50: r.latency.p50, p99: r.latency.p99 };
}

/** CPU ms PostgreSQL's backends for the bench database spent between two `backendCpu` readings (pid → ms maps). */
function backendCpuDelta(before, after) {
  let ms = 0;
  for (const [pid, cpu] of after) ms += cpu - (before.get(pid) ?? 0);
  return ms;
}

async function measure(name, databaseUrl, backendCpu) {
  log(`${name}: starting gatehouse --workers ${WORKERS}`);
  const server = await startGatehouse(databaseUrl);
  try {
    const ctx = await setup(server.url);
    const pool = [];
    const tokens = ONLY === 'cc' ? 0 : CONNECTIONS + 10;
    log(`${name}: minting ${tokens} refresh tokens through the code flow`);
    for (let i = 0; i < tokens; i += 10)
      pool.push(
        ...(await Promise.all(Array.from({ length: Math.min(10, tokens - i) }, (_, j) => mintRefreshToken(server.url, ctx, i + j)))),
      );
    const load1 = loadavg()[0];
    // Reference on the same server and machine state: the API's cheapest public GET (the CPU per
    // request of the HTTP stack, logging and routing), to read the grants' CPU figures against.
    const ping = await withCpu(server.pid, async () =>
      summary(
        await runWrkOrAutocannon({ url: `${server.url}/api/v1`, connections: CONNECTIONS, seconds: Math.max(2, SECONDS / 2) }),
        Math.max(2, SECONDS / 2),
      ),
    );
    log(`${name}: reference GET /api/v1 ${ping.rps.toFixed(0)} req/s, ${ping.cpuMsPerGrant.toFixed(2)} ms server CPU per request`);
    const none = { rps: 0, ok: 0, failed: 0, p50: 0, p99: 0, cpuMsPerGrant: 0 };
    let cc = none;
    if (ONLY !== 'refresh') {
      await clientCredentials(ctx, 2);
      cc = await withCpu(server.pid, () => clientCredentials(ctx, SECONDS));
      log(
        `${name}: client credentials ${cc.rps.toFixed(0)} grants/s (p50 ${cc.p50} ms, p99 ${cc.p99} ms, ${cc.failed} failed, ${cc.cpuMsPerGrant.toFixed(2)} ms server CPU per grant)`,
      );
    }
    let refresh = none;
    if (ONLY !== 'cc') {
      const backendsBefore = backendCpu ? await backendCpu() : null;
      refresh = await withCpu(server.pid, () => refreshGrants(ctx, pool, SECONDS));
      const database =
        backendsBefore && refresh.ok > 0
          ? `, ${(backendCpuDelta(backendsBefore, await backendCpu()) / refresh.ok).toFixed(2)} ms PostgreSQL backend CPU per grant`
          : '';
      log(
        `${name}: refresh ${refresh.rps.toFixed(0)} grants/s (p50 ${refresh.p50} ms, p99 ${refresh.p99} ms, ${refresh.failed} failed, ${refresh.cpuMsPerGrant.toFixed(2)} ms server CPU per grant${database})`,
      );
    }
    return { name, cc, refresh, ping, load: load1 };
  } finally {
    await server.stop();
  }
}

async function main() {
  if (!existsSync(join(root, 'dist', 'server', 'cli.js')) || process.env.BENCH_SKIP_BUILD !== '1') {
    log('building dist/server (scripts/build-lib.mjs --if-stale)');
    for (const script of ['build-ui.mjs', 'build-lib.mjs']) {
      const b = spawnSync(process.execPath, [join(root, 'scripts', script), '--if-stale'], { cwd: root, stdio: 'inherit' });
      if (b.status !== 0) throw new Error(`${script} failed`);
    }
  }
  // BENCH_IDP_SQLITE=none: PostgreSQL only.
  const results = process.env.BENCH_IDP_SQLITE === 'none' ? [] : [await measure('SQLite', undefined)];
  const databases = postgresUrl === 'none' ? null : await postgresDatabases(postgresUrl);
  if (databases) {
    try {
      const url = await databases.create('gatehouse_bench_idp');
      results.push(await measure('PostgreSQL', url, () => databases.backendCpu(url)));
    } finally {
      await databases.dropAll();
    }
  } else if (postgresUrl !== 'none') log(`PostgreSQL skipped: it does not answer at ${postgresUrl}`);
  const check = (ok) => (ok ? 'met' : 'not met');
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.cc.rps.toFixed(0)} (p50 ${r.cc.p50} ms, p99 ${r.cc.p99} ms; ${r.cc.cpuMsPerGrant.toFixed(2)} ms CPU/grant) — ${check(r.cc.rps >= TARGETS.cc)} | ${r.refresh.rps.toFixed(0)} (p50 ${r.refresh.p50} ms, p99 ${r.refresh.p99} ms; ${r.refresh.cpuMsPerGrant.toFixed(2)} ms CPU/grant) — ${check(r.refresh.rps >= TARGETS.refresh)} | ${r.ping.rps.toFixed(0)} req/s; ${r.ping.cpuMsPerGrant.toFixed(2)} ms CPU/request | ${r.load.toFixed(2)} |`,
  );
  const table = [
    `| Database | Client-credentials grants/s (target ≥ ${TARGETS.cc}) | Refresh grants/s (target ≥ ${TARGETS.refresh}) | Reference: GET /api/v1 | Load average (1 min) at start |`,
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(
    `\nIdentity provider, gatehouse --workers ${WORKERS}, ${CONNECTIONS} connections, ${SECONDS} s per run, ${cpus().length} cores:\n`,
  );
  console.log(table);
  for (const r of results)
    console.log(`${r.name}: ${r.cc.rps.toFixed(0)} client-credentials grants/s, ${r.refresh.rps.toFixed(0)} refresh grants/s`);
  if (process.argv.includes('--write')) {
    const block = `<!-- bench:idp:start (scripts/bench/idp-bench.mjs; npm run bench:idp -- --write) -->
## Identity provider (token endpoint)

\`npm run bench:idp\`: \`gatehouse --workers ${WORKERS}\` (\`npm start\`'s bundle), ${CONNECTIONS} connections, ${SECONDS} s per run after a 2 s warm-up, measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores. Client credentials: one \`client_secret_basic\` client asking for an RFC 9068 JWT access token (ES256) for a resource, through ${wrkAvailable() ? 'wrk' : 'autocannon'}. Refresh: each of the ${CONNECTIONS} connections rotates its own refresh-token chain (authorization-code grants, \`offline_access\`), one request at a time (Node's fetch).

${table}

CPU per grant in units of the reference request (a machine's load inflates both alike): ${results
      .map(
        (r) =>
          `${r.name} client credentials ${(r.cc.cpuMsPerGrant / r.ping.cpuMsPerGrant).toFixed(1)}×, refresh ${(r.refresh.cpuMsPerGrant / r.ping.cpuMsPerGrant).toFixed(1)}×`,
      )
      .join('; ')}.${process.env.BENCH_IDP_NOTE ? `\n\n${process.env.BENCH_IDP_NOTE}` : ''}

<!-- bench:idp:end -->`;
    log(`wrote ${writeDocSection('idp', block)}`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
