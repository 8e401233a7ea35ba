#!/usr/bin/env node
// npm run bench:ceiling [-- --write]: Gatehouse's authenticated read (GET /api/v1/users/me, one
// process, SQLite) against the bare node:http ceiling (ceiling.mjs: client-key check, ES256 JWT
// verify, user joined with its team) in the same run, through wrk at 50 connections, taken
// alternately for BENCH_ROUNDS rounds (default 5) of BENCH_DURATION s (default 5). Prints the
// ratio of the medians (req/s) and of the CPU per request against the 0.90× target; `--write`
// replaces the "bench:ceiling" block of docs/benchmarks.md.
//
// Gatehouse runs as dist/gatehouse (built unless BENCH_SKIP_BUILD=1), or with BENCH_BUNDLE=1 as
// `node dist/server/cli.js` (npm start's bundle, built when stale), which BENCH_PROFILE=<dir>
// starts with --cpu-prof so the read path can be profiled under the same load.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDocSection } from './doc-section.mjs';
import {
  fmtRps,
  gatehouseApi,
  logger,
  machineLine,
  measureLoad,
  median,
  post,
  root,
  startGatehouse,
  startServer,
  stopServer,
} from './harness.mjs';
import { wrkAvailable, wrkVersion } from './wrk.mjs';

const TARGET = 0.9;
const log = logger('bench:ceiling');
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_DURATION ?? 5);
const bundle = process.env.BENCH_BUNDLE === '1';
const profileDir = process.env.BENCH_PROFILE;
if (!wrkAvailable()) throw new Error('wrk is needed (apt-get install wrk)');
const build = bundle ? ['node', ['scripts/build-lib.mjs', '--if-stale']] : ['npm', ['run', 'build:binary']];
if (process.env.BENCH_SKIP_BUILD !== '1' || !existsSync(join(root, 'dist', bundle ? 'server/cli.js' : 'gatehouse'))) {
  log(`building (${build.flat().join(' ')})`);
  if (spawnSync(build[0], build[1], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) throw new Error('build failed');
}
if (profileDir) mkdirSync(profileDir, { recursive: true });

const work = mkdtempSync(join(tmpdir(), 'gatehouse-bench-ceiling-'));
const servers = {};
const runs = { gatehouse: [], ceiling: [] };
const loadStart = machineLine();
try {
  const binary = join(root, 'dist', bundle ? 'server/cli.js' : 'gatehouse');
  const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  servers.gatehouse = await startGatehouse(binary, { dir: join(work, 'gatehouse'), nodeArgs });
  servers.ceiling = await startServer('ceiling', process.execPath, [join(root, 'scripts', 'bench', 'ceiling.mjs')], {
    cwd: root,
    env: { ...process.env, DB_FILE: join(work, 'ceiling.db') },
    probe: '/health',
  });
  const reader = await gatehouseApi.setup(servers.gatehouse.url);
  const ceilingEmail = { email: 'reader@bench.example.com', password: 'bench password 0123456789' };
  await post(`${servers.ceiling.url}/sign-up`, {}, ceilingEmail);
  // Both sides warm (JIT, caches) before the first measured run.
  const requests = {
    async gatehouse() {
      await gatehouseApi.renew(servers.gatehouse.url, reader);
      const r = gatehouseApi.read(reader);
      return { url: `${servers.gatehouse.url}${r.path}`, headers: r.headers };
    },
    async ceiling() {
      const { access_token } = (await post(`${servers.ceiling.url}/sign-in`, {}, ceilingEmail)).json;
      return {
        url: `${servers.ceiling.url}/me`,
        headers: { 'x-access-token': access_token, 'x-publishable-client-key': 'pck_ceiling_client_key_0123456789' },
      };
    },
  };
  for (const name of ['gatehouse', 'ceiling'])
    await measureLoad({ ...(await requests[name]()), connections: 50, seconds: 2, pid: servers[name].child.pid, log });
  for (let round = 1; round <= rounds; round++) {
    for (const name of ['gatehouse', 'ceiling']) {
      const r = await measureLoad({ ...(await requests[name]()), connections: 50, seconds, pid: servers[name].child.pid, log });
      runs[name].push(r);
      log(
        `round ${round}/${rounds} ${name}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms, ${Math.round((r.cpuMs * 1000) / r.ok)} µs CPU/request`,
      );
    }
  }
} finally {
  for (const s of Object.values(servers)) await stopServer(s);
  rmSync(work, { recursive: true, force: true });
}

const rps = (name) => median(runs[name].map((r) => r.rps));
const cpuUs = (name) => (runs[name].reduce((n, r) => n + r.cpuMs, 0) * 1000) / runs[name].reduce((n, r) => n + r.ok, 0);
const byRps = rps('gatehouse') / rps('ceiling');
// Each round's own ratio (its two runs back to back), whose median a drifting machine load moves less than the ratio of medians.
const paired = median(runs.gatehouse.map((r, i) => r.rps / runs.ceiling[i].rps));
const byCpu = cpuUs('ceiling') / cpuUs('gatehouse');
const verdict = (x) => `${x.toFixed(2)}× (${x >= TARGET ? 'met' : '**not met**'})`;
const row = (name, label) =>
  `| ${label} | ${fmtRps(rps(name))} | ${runs[name].map((r) => fmtRps(r.rps)).join(' / ')} | ${Math.round(cpuUs(name))} µs |`;
const block = `<!-- bench:ceiling:start (written by npm run bench:ceiling -- --write; edit scripts/bench/ceiling-ratio.mjs instead) -->
## Authenticated read against the ceiling, per process

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench:ceiling -- --write\` (\`node scripts/bench/ceiling-ratio.mjs\`): ${loadStart} at the start, ${loadavg()[0].toFixed(2)} at the end. Gatehouse = ${bundle ? '`node dist/server/cli.js`' : 'the single executable `dist/gatehouse`'}, one process, SQLite, \`GET /api/v1/users/me\` with an access token (client access); ceiling = \`scripts/bench/ceiling.mjs\` (bare \`node:http\`, the publishable key's sha256 looked up, the ES256 JWT verified with \`node:crypto\`, the user read joined with its team, JSON answered). wrk ${wrkVersion()} at 50 connections, one thread, ${rounds} rounds of ${seconds} s taken alternately after a 2 s warm-up of each; the load generator shares the cores.

| Server | Median req/s | Runs | Server CPU per request (all rounds) |
|---|---|---|---|
${row('gatehouse', 'Gatehouse, one process')}
${row('ceiling', 'Ceiling (node:http)')}

**Target (issue 33): Gatehouse ≥ ${TARGET.toFixed(2)}× the ceiling per process:** ${verdict(byRps)} by median req/s, ${verdict(paired)} by the median of the rounds' own ratios (${runs.gatehouse.map((r, i) => (r.rps / runs.ceiling[i].rps).toFixed(2)).join(' / ')}), ${verdict(byCpu)} by CPU per request (the ceiling's over Gatehouse's).
<!-- bench:ceiling:end -->`;
console.log(`\n${block}\n`);
if (process.argv.includes('--write')) log(`wrote ${writeDocSection('ceiling', block)}`);
process.exit(0);
