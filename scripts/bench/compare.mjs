#!/usr/bin/env node
// npm run bench: Gatehouse (the built dist/gatehouse) against Better Auth (installed from npm into
// a scratch folder under /tmp, email + password on the same better-sqlite3 build) and against a
// bare node:http ceiling, with the load generators on this machine (wrk for reads when Debian's
// package is there or can be installed, else autocannon; autocannon for the rest). Writes the
// "Gatehouse vs Better Auth" section of docs/benchmarks.md and prints the results.
//
// Every scenario runs long enough for its slowest system to complete BENCH_MIN_REQUESTS requests
// (a 2 s probe per system estimates the rates first), and each cell reports completed and
// timed-out requests, so a slow system is measured, not cut off. Besides one process it
// measures `--workers <one per core>` (BENCH_WORKERS), reads while 20 connections sign up (mixed), and three processes on
// one PostgreSQL behind a round-robin balancer (when PostgreSQL answers at BENCH_POSTGRES_URL).
//
// Env: BENCH_DURATION (shortest run in seconds, default 5), BENCH_MIN_REQUESTS (default 200),
// BENCH_MAX_DURATION (longest run in seconds, default 60), BENCH_ROUNDS (default 3: every run is
// repeated round-robin over the systems and the median kept), BENCH_BETTER_AUTH_VERSION (default
// 1.7.25), BENCH_SCRATCH (default /tmp/gatehouse-bench), BENCH_SKIP_BUILD=1 (use the existing
// dist/gatehouse), BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres; "none" skips),
// BENCH_REFRESH_USERS (default 50: users whose sessions the refresh scenario rotates over),
// BENCH_LOAD_GENERATOR=autocannon (reads through autocannon too, as before wrk).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { writeDocSection } from './doc-section.mjs';
import { startBalancer } from './balancer.mjs';
import {
  familyPids,
  familyRssMb,
  gatehouseApi,
  KEYS,
  logger,
  measureLoad,
  median,
  PASSWORD,
  post,
  root,
  rssMb,
  startServer,
  stopServer,
  throttlingOff,
} from './harness.mjs';
import { wrkAvailable, wrkVersion } from './wrk.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const minRequests = Number(process.env.BENCH_MIN_REQUESTS ?? 200);
const maxDuration = Number(process.env.BENCH_MAX_DURATION ?? 60);
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/** BENCH_ONLY=mixed: only the mixed scenario, printed, docs untouched (a quick re-measure). */
const mixedOnly = process.env.BENCH_ONLY === 'mixed';
/** Processes of the workers system (`--workers <n>`); default one per core. */
const WORKERS = process.env.BENCH_WORKERS ?? String(cpus().length);
const baVersion = process.env.BENCH_BETTER_AUTH_VERSION ?? '1.7.25';
const scratch = process.env.BENCH_SCRATCH ?? '/tmp/gatehouse-bench';
const binary = join(root, 'dist', 'gatehouse');
const started = Date.now();
const loadAtStart = loadavg()[0];
const log = logger('bench');
let unique = 0;
/** One measured run (harness.mjs measureLoad) of `duration` seconds unless told, warnings logged. */
const load = (options) => measureLoad({ seconds: duration, log, ...options });

/**
 * The autocannon request of `scenario` ('read', 'signIn', 'signUp') against one system. `api`
 * describes its routes; `credentials` come from its setup (a token or a cookie).
 */
function requestFor(name, api, credentials, scenario) {
  if (scenario === 'read') return { ...api.read(credentials) };
  if (scenario === 'refresh') return { method: 'POST', ...api.refresh(credentials) };
  if (scenario === 'signIn') return { method: 'POST', ...api.signIn(credentials) };
  const tag = `${name.replace(/[^a-z0-9]+/gi, '-')}-${Date.now()}`;
  return {
    method: 'POST',
    path: api.signUpPath,
    headers: api.signUpHeaders,
    body: () => JSON.stringify(api.signUpBody(`${tag}-${unique++}@bench.example.com`)),
  };
}

function betterAuthApi(url0) {
  const origin = { origin: url0, 'content-type': 'application/json' };
  return {
    async setup(url) {
      const { res } = await post(`${url}/api/auth/sign-up/email`, origin, {
        email: 'reader@bench.example.com',
        password: PASSWORD,
        name: 'Reader',
      });
      const cookie = (res.headers.getSetCookie?.() ?? [res.headers.get('set-cookie')]).map((c) => c.split(';')[0]).join('; ');
      if (!cookie.includes('session_token')) throw new Error(`Better Auth sign-up set no session cookie: ${cookie}`);
      return cookie;
    },
    read: (cookie) => ({ path: '/api/auth/get-session', headers: { cookie } }),
    signIn: () => ({
      path: '/api/auth/sign-in/email',
      headers: origin,
      body: JSON.stringify({ email: 'reader@bench.example.com', password: PASSWORD }),
    }),
    signUpPath: '/api/auth/sign-up/email',
    signUpHeaders: origin,
    signUpBody: (email) => ({ email, password: PASSWORD, name: 'Bench' }),
  };
}

const ceilingApi = {
  async setup(url) {
    const { json } = await post(`${url}/sign-up`, {}, { email: 'reader@bench.example.com', password: PASSWORD });
    return { access: json.access_token };
  },
  /** A new access token (they live 10 minutes, as Gatehouse's), before every measured run. */
  async renew(url, c) {
    c.access = (await post(`${url}/sign-in`, {}, { email: 'reader@bench.example.com', password: PASSWORD })).json.access_token;
  },
  read: (c) => ({ path: '/me', headers: { 'x-access-token': c.access, 'x-publishable-client-key': 'pck_ceiling_client_key_0123456789' } }),
  signIn: () => ({
    path: '/sign-in',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'reader@bench.example.com', password: PASSWORD }),
  }),
  signUpPath: '/sign-up',
  signUpHeaders: { 'content-type': 'application/json' },
  signUpBody: (email) => ({ email, password: PASSWORD }),
};

// ---------------------------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'gatehouse-bench-run-'));
try {
  if (process.env.BENCH_SKIP_BUILD !== '1' || !existsSync(binary)) {
    log('building dist/gatehouse');
    const b = spawnSync(process.execPath, [join(root, 'scripts', 'build-binary.mjs')], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build:binary failed');
  }

  const baDir = join(scratch, `better-auth-${baVersion}`);
  if (!existsSync(join(baDir, 'node_modules', 'better-auth', 'package.json'))) {
    log(`installing better-auth@${baVersion} from npm into ${baDir}`);
    mkdirSync(baDir, { recursive: true });
    writeFileSync(join(baDir, 'package.json'), JSON.stringify({ name: 'gatehouse-bench-better-auth', private: true, type: 'module' }));
    const npm = spawnSync('npm', ['install', `better-auth@${baVersion}`, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: baDir,
      stdio: 'inherit',
    });
    if (npm.status !== 0) throw new Error('npm install better-auth failed');
  }
  copyFileSync(join(root, 'scripts', 'bench', 'better-auth-server.mjs'), join(baDir, 'server.mjs'));
  const baInstalled = JSON.parse(readFileSync(join(baDir, 'node_modules', 'better-auth', 'package.json'), 'utf8')).version;

  // Cold start of one process (`--workers 1`): fresh data folder and addon cache (first run ever), then restarts.
  log('cold start of dist/gatehouse');
  const cold = { first: [], restart: [] };
  for (let i = 0; i < (mixedOnly ? 0 : 5); i++) {
    const dir = join(work, `cold-${i}`);
    mkdirSync(dir);
    const env = { HOME: dir, PATH: '/nonexistent', GATEHOUSE_CACHE_DIR: join(dir, 'cache'), ...KEYS, GATEHOUSE_DASHBOARD_SIGNUP: 'open' };
    const first = await startServer('gatehouse', binary, ['--workers', '1'], { cwd: dir, env, probe: '/api/v1' });
    cold.first.push(first.ms);
    await stopServer(first);
    const again = await startServer('gatehouse', binary, ['--workers', '1'], { cwd: dir, env, probe: '/api/v1' });
    cold.restart.push(again.ms);
    await stopServer(again);
  }
  if (!mixedOnly) log(`  first start ${median(cold.first).toFixed(0)} ms, restart ${median(cold.restart).toFixed(0)} ms (medians of 5)`);

  const results = {};
  const memory = {};

  // Every system runs at once and each scenario is measured on each system back to back, so
  // background load on a shared machine hits all of them alike.
  const systems = [];
  {
    // Gatehouse: the single executable as one process (argon2id m=19456 t=2 p=1), and with
    // `--workers <one per core>` (BENCH_WORKERS): named explicitly, since `auto` keeps embedded
    // SQLite at one process (one writer) and this bench runs on SQLite.
    for (const [key, workers] of [
      ['gatehouse', '1'],
      ['gatehouseWorkers', WORKERS],
    ]) {
      const dir = join(work, key);
      mkdirSync(dir);
      const server = await startServer('gatehouse', binary, ['--workers', workers], {
        cwd: dir,
        env: { HOME: dir, PATH: process.env.PATH, ...KEYS, GATEHOUSE_DASHBOARD_SIGNUP: 'open' },
        probe: '/api/v1',
      });
      await throttlingOff(server.url);
      systems.push({
        key,
        name: key === 'gatehouse' ? 'gatehouse' : `gatehouse --workers ${WORKERS}`,
        server,
        api: gatehouseApi,
        scenarios: ['read', 'signIn', 'signUp', 'refresh'],
      });
    }
  }
  // Better Auth at Gatehouse's hash cost (argon2id, same addon), and at its default (scrypt).
  for (const hash of ['argon2id', 'default']) {
    const dir = join(work, `better-auth-${hash}`);
    mkdirSync(dir);
    const env = { ...process.env, NODE_ENV: 'production', DB_FILE: join(dir, 'auth.db'), REPO: root, HASH: hash };
    const server = await startServer('better-auth', process.execPath, ['server.mjs'], { cwd: baDir, env, probe: '/api/auth/ok' });
    systems.push({
      key: `betterAuth-${hash}`,
      name: `better-auth (${hash})`,
      server,
      api: betterAuthApi(server.url),
      scenarios: hash === 'argon2id' ? ['read', 'signIn', 'signUp'] : ['signIn', 'signUp'],
    });
  }
  {
    const dir = join(work, 'ceiling');
    mkdirSync(dir);
    const server = await startServer('ceiling', process.execPath, [join(root, 'scripts', 'bench', 'ceiling.mjs')], {
      cwd: root,
      env: { ...process.env, DB_FILE: join(dir, 'ceiling.db') },
      probe: '/health',
    });
    systems.push({ key: 'ceiling', name: 'ceiling', server, api: ceilingApi, scenarios: ['read', 'signIn', 'signUp'] });
  }
  for (const system of systems) {
    system.credentials = await system.api.setup(system.server.url);
    results[system.key] = {};
  }
  for (let i = 0; i < 20; i++) await (await fetch(`${systems[0].server.url}/api/v1`)).arrayBuffer();
  await new Promise((r) => setTimeout(r, 1000));
  const byKey = Object.fromEntries(systems.map((x) => [x.key, x]));
  memory.gatehouseIdle = rssMb(byKey.gatehouse.server.child.pid);
  memory.betterAuthIdle = rssMb(byKey['betterAuth-argon2id'].server.child.pid);
  memory.workersIdle = familyRssMb(byKey.gatehouseWorkers.server.child.pid);
  memory.workerProcesses = familyPids(byKey.gatehouseWorkers.server.child.pid).length;
  for (const system of systems) await system.api.prepare?.(system.server.url, system.credentials);

  // How long each scenario runs: until its slowest system completes minRequests (a
  // fixed window cut slow systems off), at least `duration`, at most `maxDuration` seconds.
  const SCENARIOS = mixedOnly ? [] : ['read', 'signIn', 'signUp', 'refresh'];
  const seconds = {};
  for (const scenario of SCENARIOS) {
    for (const connections of [1, 50]) {
      let slowest = Infinity;
      for (const system of systems) {
        if (!system.scenarios.includes(scenario)) continue;
        const request = requestFor(system.name, system.api, system.credentials, scenario);
        const r = await load({
          url: `${system.server.url}${request.path}`,
          method: request.method,
          headers: request.headers,
          body: request.body,
          connections,
          pid: system.server.child.pid,
          seconds: 2,
        });
        slowest = Math.min(slowest, r.rps);
      }
      seconds[`${scenario}@${connections}`] = Math.min(
        maxDuration,
        Math.max(duration, Math.ceil((minRequests * 1.2) / Math.max(slowest, 0.1))),
      );
      log(`probe ${scenario}@${connections}: slowest ${slowest.toFixed(1)} req/s → ${seconds[`${scenario}@${connections}`]} s per run`);
    }
  }

  const runs = {};
  for (let round = 1; round <= (mixedOnly ? 0 : rounds); round++) {
    for (const scenario of SCENARIOS) {
      for (const connections of [1, 50]) {
        for (const system of systems) {
          if (!system.scenarios.includes(scenario)) continue;
          await system.api.renew?.(system.server.url, system.credentials);
          const request = requestFor(system.name, system.api, system.credentials, scenario);
          const runSeconds = seconds[`${scenario}@${connections}`];
          log(`round ${round}/${rounds} ${system.name}: ${scenario} at ${connections} connection(s), ${runSeconds} s`);
          const pid = familyPids(system.server.child.pid);
          const sampleRssOf = scenario === 'read' && connections === 50 ? system.server.child.pid : undefined;
          const r = await load({
            url: `${system.server.url}${request.path}`,
            method: request.method,
            headers: request.headers,
            body: request.body,
            connections,
            sampleRssOf,
            pid,
            seconds: runSeconds,
          });
          ((runs[system.key] ??= {})[`${scenario}@${connections}`] ??= []).push(r);
          log(
            `  ${r.rps.toFixed(1)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.ok} completed, ${r.timeouts} timed out, ${r.ok ? Math.round((r.cpuMs * 1000) / r.ok) : '—'} µs CPU per request`,
          );
        }
      }
    }
  }
  // Per system and scenario: the median run by req/s (its latencies with it), CPU per request over all runs.
  for (const [key, byScenario] of Object.entries(runs)) {
    for (const [k, list] of Object.entries(byScenario)) {
      const sorted = [...list].sort((a, b) => a.rps - b.rps);
      const mid = sorted[Math.floor(sorted.length / 2)];
      const ok = list.reduce((n, r) => n + r.ok, 0);
      results[key][k] = {
        ...mid,
        runs: list.map((r) => r.rps),
        cpuUsPerReq: ok ? (list.reduce((n, r) => n + r.cpuMs, 0) * 1000) / ok : undefined,
        peakRssMb: Math.max(...list.map((r) => r.peakRssMb ?? 0)) || undefined,
      };
    }
  }
  memory.gatehouseLoad = results.gatehouse['read@50']?.peakRssMb;
  memory.betterAuthLoad = results['betterAuth-argon2id']['read@50']?.peakRssMb;

  // Mixed: reads at 10 connections while 20 connections sign up, on the same server.
  const mixed = {};
  const signUpRates = ['gatehouse', 'gatehouseWorkers', 'betterAuth-argon2id'].map((k) => results[k]['signUp@50']?.rps ?? 1);
  const mixedSeconds = Math.min(maxDuration, Math.max(duration, Math.ceil((minRequests * 1.2) / Math.max(0.1, Math.min(...signUpRates)))));
  for (const key of ['gatehouse', 'gatehouseWorkers', 'betterAuth-argon2id']) {
    const system = byKey[key];
    await system.api.renew?.(system.server.url, system.credentials);
    const read = requestFor(system.name, system.api, system.credentials, 'read');
    const signUp = requestFor(system.name, system.api, system.credentials, 'signUp');
    log(`mixed ${system.name}: reads at 10 connections while 20 sign up, ${mixedSeconds} s`);
    const pid = familyPids(system.server.child.pid);
    const [reads, signUps] = await Promise.all([
      load({
        url: `${system.server.url}${read.path}`,
        method: read.method,
        headers: read.headers,
        connections: 10,
        pid,
        seconds: mixedSeconds,
      }),
      load({
        url: `${system.server.url}${signUp.path}`,
        method: signUp.method,
        headers: signUp.headers,
        body: signUp.body,
        connections: 20,
        pid,
        seconds: mixedSeconds,
      }),
    ]);
    mixed[key] = { reads, signUps };
    log(
      `  reads ${reads.rps.toFixed(0)} req/s p50 ${reads.p50} ms p99 ${reads.p99} ms; sign-ups ${signUps.rps.toFixed(1)}/s (${signUps.ok} completed, ${signUps.timeouts} timed out)`,
    );
  }
  for (const system of systems) await stopServer(system.server);
  if (mixedOnly) process.exit(0);

  const scaleOut = await measureScaleOut(work);

  writeReport({ results, memory, cold, baInstalled });
  writeScaleReport({ results, memory, mixed, mixedSeconds, seconds, scaleOut });
} finally {
  rmSync(work, { recursive: true, force: true });
}

function writeReport({ results, memory, cold, baInstalled }) {
  const g = results.gatehouse;
  const ba = results['betterAuth-argon2id'];
  const baDefault = results['betterAuth-default'];
  const c = results.ceiling;
  const fmt = (r) =>
    r
      ? `${r.rps >= 100 ? r.rps.toFixed(0) : r.rps.toFixed(1)} (${r.p50} / ${r.p99}); ${r.cpuUsPerReq ? Math.round(r.cpuUsPerReq) : '—'} µs`
      : '—';
  const ratio = (a, b) =>
    a && b && b.rps > 0
      ? `${(a.rps / b.rps).toFixed(2)}× by req/s; ${a.cpuUsPerReq && b.cpuUsPerReq ? `${(b.cpuUsPerReq / a.cpuUsPerReq).toFixed(2)}× by CPU` : '—'}`
      : '—';
  const rows = [];
  const label = { read: 'Authenticated read¹', signIn: 'Password sign-in, equal hash cost²', signUp: 'Password sign-up, equal hash cost²' };
  for (const s of ['read', 'signIn', 'signUp']) {
    for (const n of [1, 50]) {
      const k = `${s}@${n}`;
      rows.push(`| ${label[s]} | ${n} | ${fmt(g[k])} | ${fmt(ba[k])} | ${fmt(c[k])} | **${ratio(g[k], ba[k])}** | ${ratio(g[k], c[k])} |`);
    }
  }
  for (const s of ['signIn', 'signUp']) {
    for (const n of [1, 50]) {
      const k = `${s}@${n}`;
      rows.push(
        `| Password ${s === 'signIn' ? 'sign-in' : 'sign-up'}, each product's default³ | ${n} | ${fmt(g[k])} | ${fmt(baDefault[k])} | — | **${ratio(g[k], baDefault[k])}** | — |`,
      );
    }
  }
  const cpu = cpus();
  const readRatio = g['read@50'].rps / ba['read@50'].rps;
  const signInRatio = g['signIn@50'].rps / ba['signIn@50'].rps;
  const ceilRatio = g['read@50'].rps / c['read@50'].rps;
  const cpuRatio = (other, k) => (other[k].cpuUsPerReq && g[k].cpuUsPerReq ? other[k].cpuUsPerReq / g[k].cpuUsPerReq : NaN);
  const readCpu = cpuRatio(ba, 'read@50');
  const signInCpu = cpuRatio(ba, 'signIn@50');
  const ceilCpu = cpuRatio(c, 'read@50');
  const both = (byRps, byCpu, min) =>
    `${byRps.toFixed(2)}× by req/s (${check(byRps >= min)}), ${byCpu.toFixed(2)}× by CPU per request (${check(byCpu >= min)})`;
  const coldMs = median(cold.first);
  const check = (ok) => (ok ? 'met' : '**not met**');
  const section = `<!-- bench:compare:start (written by npm run bench; edit scripts/bench/compare.mjs instead) -->
## Gatehouse vs Better Auth

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench\` (\`node scripts/bench/compare.mjs\`; ${rounds} rounds of ${duration} s runs).

**Machine:** ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Linux ${release()}, Node ${process.version}. 1-minute load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end (other work on the machine makes the absolute numbers noisy; every system is up for the whole run and each scenario is measured on each system back to back, so the ratios compare like with like). Load generator and servers share the machine: ${wrkAvailable() ? `wrk ${wrkVersion()} (one thread, a child process of the bench) for the reads, ` : ''}autocannon ${JSON.parse(readFileSync(join(root, 'node_modules', 'autocannon', 'package.json'), 'utf8')).version} (in the bench process) for ${wrkAvailable() ? 'the POST scenarios (sign-in, sign-up, refresh)' : 'every scenario'}.

**Systems:** Gatehouse = the single executable \`dist/gatehouse\` (SQLite in its data folder, JSON request logs to /dev/null, users in the internal project with \`GATEHOUSE_DASHBOARD_SIGNUP=open\` so client sign-up stays open). Better Auth ${baInstalled} = \`betterAuth({ database: <better-sqlite3>, emailAndPassword: { enabled: true } })\` behind \`toNodeHandler\` on \`node:http\`, installed from npm into \`${scratch}\`, on the repo's better-sqlite3 build with Gatehouse's pragmas (WAL, synchronous=FULL), rate limit off, \`NODE_ENV=production\`. Ceiling = \`scripts/bench/ceiling.mjs\`: bare \`node:http\` doing only the irreducible work with prepared statements (argon2id, one insert per row, an ES256 JWT signed or verified with \`node:crypto\`, client-key check and one user read).

Each cell: requests/s of 2xx answers, the median of ${rounds} runs of ${duration} s taken round-robin over the systems (p50 / p99 latency in ms of that run); then the server process's CPU time (user + system, all threads, from /proc) per 2xx answer over all runs, the steadier figure on a shared machine. Ratios: req/s over req/s, and CPU per request of the other side over Gatehouse's (above 1× means Gatehouse does the request with less CPU).

| Scenario | Connections | Gatehouse | Better Auth | Ceiling | Gatehouse / Better Auth | Gatehouse / ceiling |
|---|---|---|---|---|---|---|
${rows.join('\n')}

1. Gatehouse \`GET /api/v1/users/me\` with an access token (client access); Better Auth \`GET /api/auth/get-session\` with its session cookie (default settings: no cookie cache, so a database read per request); ceiling: check the publishable client key (one indexed read of its sha256), verify the JWT, read the user joined with its selected team (Gatehouse makes four queries: project, client key, user, team).
2. Both sides hash with argon2id m=19456 KiB, t=2, p=1 (OWASP; Gatehouse's default) through the same \`argon2\` native addon; Better Auth gets it through its \`emailAndPassword.password.{hash, verify}\` option.
3. Gatehouse's default is the argon2id above; Better Auth's default is scrypt N=16384, r=16, p=1 (\`node:crypto\`).

**Single executable:**

| Measure | Value | Target |
|---|---|---|
| Cold start, first run (empty folder: migrations, keys, addons written to cache) → first 200 of \`GET /api/v1\` | ${median(cold.first).toFixed(0)} ms (median of 5; runs ${cold.first.map((m) => m.toFixed(0)).join(', ')}) | < 500 ms: ${check(coldMs < 500)} |
| Restart on existing data → first 200 | ${median(cold.restart).toFixed(0)} ms (median of 5; runs ${cold.restart.map((m) => m.toFixed(0)).join(', ')}) | |
| Resident memory, idle | ${memory.gatehouseIdle.toFixed(0)} MB (Better Auth on node: ${memory.betterAuthIdle.toFixed(0)} MB) | < 120 MB: ${check(memory.gatehouseIdle < 120)} |
| Resident memory, peak during 50-connection reads (max over the rounds; from round 2 on, after sign-in/sign-up runs: argon2id holds 19 MiB per hash in flight) | ${memory.gatehouseLoad?.toFixed(0) ?? '—'} MB (Better Auth: ${memory.betterAuthLoad?.toFixed(0) ?? '—'} MB) | |

**Targets, at 50 connections:** authenticated reads ≥ 1.5× Better Auth: ${both(readRatio, readCpu, 1.5)}; sign-in ≥ 1× at equal hash cost: ${both(signInRatio, signInCpu, 1)}; authenticated reads, one process, ≥ 0.90× the ceiling (issue 33; \`npm run bench:ceiling\` measures only this): ${both(ceilRatio, ceilCpu, 0.9)}; cold start < 500 ms: ${check(coldMs < 500)} on a first run (${coldMs.toFixed(0)} ms), ${check(median(cold.restart) < 500)} on a restart (${median(cold.restart).toFixed(0)} ms); idle memory < 120 MB: ${check(memory.gatehouseIdle < 120)}.
<!-- bench:compare:end -->`;
  writeDocSection('compare', section);
  process.stdout.write(`${section}\n`);
  log(
    `authenticated read, one process, against the ceiling: ${ceilRatio.toFixed(2)}× by req/s, ${ceilCpu.toFixed(2)}× by CPU per request (target 0.90×)`,
  );
  log(`wrote docs/benchmarks.md in ${Math.round((Date.now() - started) / 1000)} s`);
}

/**
 * Three single-process Gatehouse binaries on one fresh PostgreSQL schema behind the round-robin
 * balancer (scripts/bench/balancer.mjs), against one of them alone: authenticated reads at 50
 * connections. Null when PostgreSQL does not answer (BENCH_POSTGRES_URL=none skips it).
 */
async function measureScaleOut(work) {
  if (postgresUrl === 'none') return null;
  const schema = `bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  try {
    await admin.connect();
  } catch (error) {
    log(`scale-out skipped: PostgreSQL at ${postgresUrl} does not answer (${error.message})`);
    return null;
  }
  await admin.query(`create schema ${schema}`);
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const procs = [];
  try {
    for (let i = 0; i < 3; i++) {
      const dir = join(work, `pg-${i}`);
      mkdirSync(dir);
      procs.push(
        await startServer('gatehouse', binary, ['--workers', '1', '--database-url', url.toString()], {
          cwd: dir,
          env: { HOME: dir, PATH: process.env.PATH, ...KEYS, GATEHOUSE_DASHBOARD_SIGNUP: 'open' },
          probe: '/api/v1',
        }),
      );
    }
    await throttlingOff(procs[0].url);
    const credentials = await gatehouseApi.setup(procs[0].url);
    const read = gatehouseApi.read(credentials);
    const pids = procs.map((p) => p.child.pid);
    const runSeconds = Math.max(duration, 10);
    log(`scale-out: one process on PostgreSQL, reads at 50 connections, ${runSeconds} s`);
    const one = await load({ url: `${procs[0].url}${read.path}`, headers: read.headers, connections: 50, pid: pids, seconds: runSeconds });
    const balancer = await startBalancer(procs.map((p) => p.url));
    log(`scale-out: three processes behind the balancer, reads at 50 connections, ${runSeconds} s`);
    const three = await load({
      url: `${balancer.url}${read.path}`,
      headers: read.headers,
      connections: 50,
      pid: pids,
      seconds: runSeconds,
    });
    const spread = [...balancer.counts];
    await balancer.close();
    log(`  one: ${one.rps.toFixed(0)} req/s; three: ${three.rps.toFixed(0)} req/s (${spread.join(' / ')} requests per process)`);
    return { one, three, spread };
  } finally {
    for (const p of procs) await stopServer(p);
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

/** The "Scale" section of docs/benchmarks.md: workers, mixed load, scale-out on PostgreSQL. */
function writeScaleReport({ results, memory, mixed, mixedSeconds, seconds, scaleOut }) {
  const g = results.gatehouse;
  const w = results.gatehouseWorkers;
  const ba = results['betterAuth-argon2id'];
  const c = results.ceiling;
  const rps = (r) => (r ? (r.rps >= 100 ? r.rps.toFixed(0) : r.rps.toFixed(1)) : '—');
  const cell = (r) => (r ? `${rps(r)} (${r.p50} / ${r.p99} ms; ${r.ok} completed, ${r.timeouts} timed out)` : '—');
  const x = (a, b) => (a && b && b.rps > 0 ? a.rps / b.rps : NaN);
  const check = (ok) => (ok ? 'met' : '**not met**');
  const rows = [];
  for (const s of ['read', 'signIn', 'signUp', 'refresh']) {
    for (const n of [1, 50]) {
      const k = `${s}@${n}`;
      rows.push(`| ${s} | ${n} | ${seconds[k]} s | ${cell(g[k])} | ${cell(w[k])} | ${x(w[k], g[k]).toFixed(2)}× |`);
    }
  }
  const m = (k) => mixed[k];
  const mixedRows = ['gatehouse', 'gatehouseWorkers', 'betterAuth-argon2id'].map(
    (k) =>
      `| ${k === 'gatehouse' ? 'Gatehouse, one process' : k === 'gatehouseWorkers' ? `Gatehouse --workers ${WORKERS}` : 'Better Auth (argon2id)'} | ${rps(m(k).reads)} | ${m(k).reads.p50} ms | ${m(k).reads.p99} ms | ${rps(m(k).signUps)}/s | ${m(k).signUps.ok} / ${m(k).signUps.timeouts} |`,
  );
  const readOne = x(g['read@50'], c['read@50']);
  const readWorkers = x(w['read@50'], g['read@50']);
  const readWorkersBa = x(w['read@50'], ba['read@50']);
  const gm = m('gatehouse');
  const section = `<!-- bench:scale:start (written by npm run bench; edit scripts/bench/compare.mjs instead) -->
## Scale: workers, mixed load, several processes

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in the same \`npm run bench\` run as the section above (1-minute load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end; ${cpus().length} cores). Each run lasts until its slowest system has completed at least ${minRequests} requests (a 2 s probe estimates the rates; at least ${duration} s, at most ${maxDuration} s; the "Run" column). Cells: requests/s of 2xx answers (p50 / p99 latency; requests completed and timed out in the median run).

| Scenario | Connections | Run | Gatehouse, one process | Gatehouse \`--workers ${WORKERS}\` (${memory.workerProcesses} processes) | Workers / one |
|---|---|---|---|---|---|
${rows.join('\n')}

**Mixed** (${mixedSeconds} s): authenticated reads at 10 connections while 20 connections sign up on the same server.

| Server | Reads/s | Read p50 | Read p99 | Sign-ups | Sign-ups completed / timed out |
|---|---|---|---|---|---|
${mixedRows.join('\n')}

**Several processes on one PostgreSQL** (three single-process binaries behind the round-robin loopback balancer of \`scripts/bench/balancer.mjs\`, reads at 50 connections): ${scaleOut ? `one process alone ${rps(scaleOut.one)} req/s (p99 ${scaleOut.one.p99} ms); three behind the balancer ${rps(scaleOut.three)} req/s (p99 ${scaleOut.three.p99} ms; ${scaleOut.spread.join(' / ')} requests per process; ${scaleOut.three.bad} errors) = ${x(scaleOut.three, scaleOut.one).toFixed(2)}×. On ${cpus().length} cores the three processes, the balancer, PostgreSQL and the load generator share the same cores, so this shows correctness and overhead, not the per-core gain (see docs/scaling.md).` : 'not measured (PostgreSQL did not answer).'}

**Memory:** one process ${memory.gatehouseIdle.toFixed(0)} MB resident when idle; \`--workers ${WORKERS}\` ${memory.workersIdle.toFixed(0)} MB for ${memory.workerProcesses} processes (primary and workers).

**Targets:** authenticated read, one process ≥ 0.90× of the ceiling: ${readOne.toFixed(2)}× (${check(readOne >= 0.9)}); \`--workers ${WORKERS}\` ≥ 1.6× one process: ${readWorkers.toFixed(2)}× (${check(readWorkers >= 1.6)}) and ≥ 8× Better Auth's get-session: ${readWorkersBa.toFixed(2)}× (${check(readWorkersBa >= 8)}); reads during a 20-connection sign-up burst p99 < 25 ms: ${gm.reads.p99} ms (${check(gm.reads.p99 < 25)}) with sign-ups ≥ 30/s: ${gm.signUps.rps.toFixed(1)}/s (${check(gm.signUps.rps >= 30)}); with \`--workers ${WORKERS}\` sign-in ≥ 60/s: ${rps(w['signIn@50'])} (${check(w['signIn@50'].rps >= 60)}); refresh ≥ 2,000/s with \`--workers auto\`, which on SQLite is one process (one writer): ${rps(g['refresh@50'])} (${check(g['refresh@50'].rps >= 2000)}; \`--workers ${WORKERS}\` on the same SQLite file: ${rps(w['refresh@50'])}).
<!-- bench:scale:end -->`;
  writeDocSection('scale', section);
  process.stdout.write(`${section}\n`);
}
