#!/usr/bin/env node
// npm run bench:ab -- <old> <new> [read|signIn|refresh|all] [rounds] [--db=sqlite|postgres|both] [--connections=50] [--write]
//
// Two builds of the single executable side by side, one process each (`--workers 1`), throttling
// off, measured alternately at 50 connections (--connections) so machine load hits both alike: the authenticated
// read (GET /api/v1/users/me, through wrk when it is there), password sign-in, and refresh over 50
// users' sessions (autocannon). `<old>` and `<new>` are each a path to an executable
// (dist/gatehouse after `npm run build:binary`) or a git commit, built by build-at.mjs in a
// folder of its own. On PostgreSQL (`--db=postgres`, server at BENCH_POSTGRES_URL, default
// 127.0.0.1:5432 user postgres) each binary gets a fresh database, dropped at the end; `both`
// measures SQLite, then PostgreSQL. Prints every run and a markdown table of the medians (new /
// old); `--write` replaces the "bench:ab" block of docs/benchmarks.md. Env: BENCH_DURATION (s per
// run, default 5; sign-in twice that), BENCH_REFRESH_USERS (default 50).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { binaryAt, describeCommit } from './build-at.mjs';
import { writeDocSection } from './doc-section.mjs';
import {
  fmtRps,
  logger,
  machineLine,
  measureRounds,
  median,
  postgresDatabases,
  root,
  SCENARIO_LABEL,
  scenarioSeconds,
  startGatehouse,
  stopServer,
} from './harness.mjs';
import { wrkAvailable } from './wrk.mjs';

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const [oldArg, newArg, mode = 'read', roundsArg = '3'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const db = flags.find((f) => f.startsWith('--db='))?.slice(5) ?? 'sqlite';
const connections = Number(flags.find((f) => f.startsWith('--connections='))?.slice(14) ?? 50);
const scenarios = mode === 'all' ? ['read', 'signIn', 'refresh'] : [mode];
if (!oldArg || !newArg || !scenarios.every((s) => s in SCENARIO_LABEL) || !['sqlite', 'postgres', 'both'].includes(db)) {
  console.error(
    'usage: node scripts/bench/ab.mjs <old binary|commit> <new binary|commit> [read|signIn|refresh|all] [rounds] [--db=sqlite|postgres|both] [--connections=50] [--write]',
  );
  process.exit(2);
}
const log = logger('bench:ab');
const rounds = Number(roundsArg);
const seconds = scenarioSeconds();

/** A binary and how the report names it: a path as given, a commit as build-at.mjs describeCommit does. */
function resolveBinary(arg) {
  if (existsSync(arg)) return { path: resolve(arg), label: `\`${relative(root, resolve(arg)) || arg}\`` };
  return { path: binaryAt(arg, log), label: describeCommit(arg) };
}
const builds = { old: resolveBinary(oldArg), new: resolveBinary(newArg) };

/** Both binaries on one database kind, measured round-robin. */
async function measure(kind) {
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-ab-'));
  const databases = kind === 'postgres' ? await postgresDatabases() : undefined;
  if (databases === null) throw new Error('PostgreSQL does not answer at BENCH_POSTGRES_URL');
  const systems = [];
  try {
    for (const key of ['old', 'new']) {
      const databaseUrl = databases ? await databases.create(`gatehouse_ab_${key}`) : undefined;
      const server = await startGatehouse(builds[key].path, { dir: join(work, key), databaseUrl });
      systems.push({ key, server, databaseCpu: databaseUrl ? () => databases.backendCpu(databaseUrl) : undefined });
    }
    const load = machineLine();
    return { kind, load, results: await measureRounds(systems, { scenarios, rounds, seconds, connections, log }) };
  } finally {
    for (const s of systems) await stopServer(s.server);
    await databases?.dropAll();
    rmSync(work, { recursive: true, force: true });
  }
}

const measured = [];
for (const kind of db === 'both' ? ['sqlite', 'postgres'] : [db]) measured.push(await measure(kind));

const DB_NAME = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const rows = measured.flatMap(({ kind, results }) =>
  scenarios.map((s) => {
    const [o, n] = [results.old[s], results.new[s]];
    const runs = (r) => r.runs.map(fmtRps).join(' / ');
    const db = (r) => (r.dbCpuUsPerReq === undefined ? '' : ` + ${Math.round(r.dbCpuUsPerReq)}`);
    // Each round's own ratio (old and new back to back): steadier than the ratio of medians while the machine's load drifts.
    const paired = median(n.runs.map((x, i) => x / o.runs[i]));
    return `| ${DB_NAME[kind]} | ${SCENARIO_LABEL[s]} | ${fmtRps(o.rps)} | ${fmtRps(n.rps)} | **${(n.rps / o.rps).toFixed(2)}×** (rounds: ${paired.toFixed(2)}×) | ${Math.round(o.cpuUsPerReq)}${db(o)} / ${Math.round(n.cpuUsPerReq)}${db(n)} µs (${(o.cpuUsPerReq / n.cpuUsPerReq).toFixed(2)}×) | ${runs(o)} | ${runs(n)} |`;
  }),
);
const table = [
  '| Database | Scenario | Before (median req/s) | After | After / before | Server CPU per request, before / after (before ÷ after) | Runs before | Runs after |',
  '|---|---|---|---|---|---|---|---|',
  ...rows,
].join('\n');
const command = `node scripts/bench/ab.mjs ${oldArg} ${newArg} ${mode} ${rounds} --db=${db}${connections === 50 ? '' : ` --connections=${connections}`}`;
const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
const loads = measured.map((m) => `${DB_NAME[m.kind]}: ${m.load} before its runs`).join('; ');
const block = `<!-- bench:ab:start (written by npm run bench:ab -- … --write; edit scripts/bench/ab.mjs instead) -->
## Before and after (issue 33): reads, sign-in, refresh

Measured ${when} UTC with \`${command}\` (${loads}). Before: ${builds.old.label}. After: ${builds.new.label}. One process each (\`--workers 1\`), throttling off, ${connections} connection${connections === 1 ? '' : 's'}, ${rounds} rounds taken alternately (old, new) of ${seconds.read} s (reads, refresh) and ${seconds.signIn} s (sign-in); reads through ${wrkAvailable() ? 'wrk' : 'autocannon'}, sign-in and refresh through autocannon. Each binary has its own data folder or fresh PostgreSQL database. Cells: the median of the rounds; "rounds": the median of each round's own new / old ratio; CPU is the server process's user + system time (/proc) per 2xx answer over all rounds, the steadier figure on a shared machine (on PostgreSQL "+ n": its database's backend processes, by the pids \`pg_stat_activity\` names; the ratio is the server's alone).

${table}
<!-- bench:ab:end -->`;
console.log(`\n${table}\n`);
if (flags.includes('--write')) log(`wrote ${writeDocSection('ab', block)}`);
