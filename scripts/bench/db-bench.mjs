#!/usr/bin/env node
// npm run bench:db [-- --write]: the single executable (dist/gatehouse, built when missing or
// unless BENCH_SKIP_BUILD=1) on SQLite and on PostgreSQL, one process and `--workers 2`
// (BENCH_WORKERS), all four up at once and measured round-robin at 50 connections so machine load
// hits them alike: authenticated reads (wrk when it is there), password sign-in and refresh over
// 50 users' sessions (autocannon). PostgreSQL at BENCH_POSTGRES_URL (default 127.0.0.1:5432 user
// postgres): a fresh database per server, dropped at the end. Prints a markdown table with the
// 1-minute load average; `--write` replaces the "bench:db" block of docs/benchmarks.md, from which
// docs/scaling.md's sizing table is taken. Env: BENCH_DURATION (s per run, default 5; sign-in
// twice that), BENCH_ROUNDS (default 3).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDocSection } from './doc-section.mjs';
import {
  familyPids,
  familyRssMb,
  fmtRps,
  logger,
  machineLine,
  measureRounds,
  postgresDatabases,
  root,
  SCENARIO_LABEL,
  scenarioSeconds,
  startGatehouse,
  stopServer,
} from './harness.mjs';
import { wrkAvailable } from './wrk.mjs';

const log = logger('bench:db');
const WORKERS = process.env.BENCH_WORKERS ?? '2';
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = scenarioSeconds();
const scenarios = ['read', 'signIn', 'refresh'];
const binary = join(root, 'dist', 'gatehouse');
if (process.env.BENCH_SKIP_BUILD !== '1' || !existsSync(binary)) {
  log('building dist/gatehouse');
  if (spawnSync('npm', ['run', 'build:binary'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0)
    throw new Error('npm run build:binary failed');
}

const work = mkdtempSync(join(tmpdir(), 'gatehouse-bench-db-'));
const databases = await postgresDatabases();
if (databases === null) throw new Error('PostgreSQL does not answer at BENCH_POSTGRES_URL');
const systems = [];
let results;
const loadStart = machineLine();
try {
  for (const db of ['sqlite', 'postgres']) {
    for (const workers of ['1', WORKERS]) {
      const key = `${db}-${workers}`;
      const databaseUrl = db === 'postgres' ? await databases.create('gatehouse_bench_db') : undefined;
      log(`starting ${key}`);
      const server = await startGatehouse(binary, { dir: join(work, key), workers, databaseUrl });
      const databaseCpu = databaseUrl ? () => databases.backendCpu(databaseUrl) : undefined;
      systems.push({ key, db, workers, server, databaseCpu, processes: familyPids(server.child.pid).length });
    }
  }
  await new Promise((r) => setTimeout(r, 1000));
  for (const s of systems) s.idleRssMb = familyRssMb(s.server.child.pid);
  results = await measureRounds(systems, { scenarios, rounds, seconds, log });
} finally {
  for (const s of systems) await stopServer(s.server);
  await databases.dropAll();
  rmSync(work, { recursive: true, force: true });
}
const loadEnd = loadavg()[0].toFixed(2);

const DB_NAME = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const cell = (r) =>
  `${fmtRps(r.rps)} (${r.p50} / ${r.p99} ms; ${Math.round(r.cpuUsPerReq)} µs${r.dbCpuUsPerReq === undefined ? '' : ` + ${Math.round(r.dbCpuUsPerReq)} µs PostgreSQL`})${r.bad ? `, ${r.bad} failed` : ''}`;
const rows = scenarios.flatMap((scenario) =>
  ['sqlite', 'postgres'].map((db) => {
    const [one, many] = [results[`${db}-1`][scenario], results[`${db}-${WORKERS}`][scenario]];
    return `| ${SCENARIO_LABEL[scenario]} | ${DB_NAME[db]} | ${cell(one)} | ${cell(many)} | ${(many.rps / one.rps).toFixed(2)}× |`;
  }),
);
const memory = systems.map(
  (s) => `${DB_NAME[s.db]} \`--workers ${s.workers}\` ${Math.round(s.idleRssMb)} MB (${s.processes} process${s.processes > 1 ? 'es' : ''})`,
);
const table = [`| Scenario | Database | One process | \`--workers ${WORKERS}\` | Workers / one |`, '|---|---|---|---|---|', ...rows].join(
  '\n',
);
const block = `<!-- bench:db:start (written by npm run bench:db -- --write; edit scripts/bench/db-bench.mjs instead) -->
## SQLite and PostgreSQL: reads, sign-in, refresh

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench:db -- --write\` (\`node scripts/bench/db-bench.mjs\`): ${loadStart} at the start, ${loadEnd} at the end. The single executable \`dist/gatehouse\` four times at once, on SQLite (its data folder) and on PostgreSQL (a fresh database each, on the same machine), as one process and with \`--workers ${WORKERS}\`; throttling off; 50 connections; ${rounds} rounds taken round-robin over the four of ${seconds.read} s (reads, refresh) and ${seconds.signIn} s (sign-in). Reads through ${wrkAvailable() ? 'wrk' : 'autocannon'}, sign-in and refresh through autocannon, all on the same cores as the servers (and PostgreSQL).

Each cell: 2xx answers per second, the median of the rounds (p50 / p99 latency of that run; the server's CPU, all its processes, per 2xx answer over all rounds; on PostgreSQL, plus the CPU of the database's backend processes per 2xx answer, from /proc by the pids \`pg_stat_activity\` names for that database).

${table}

Idle memory before the runs: ${memory.join('; ')}.
<!-- bench:db:end -->`;
console.log(`\n${block}\n`);
if (process.argv.includes('--write')) log(`wrote ${writeDocSection('db', block)}`);
process.exit(0);
