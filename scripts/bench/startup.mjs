#!/usr/bin/env node
// npm run bench:startup: start time (spawn → first 200 from /health) and resident memory of one
// server process, for each way of running the server:
//   tsx       node --import tsx server-bin/cli.ts   (what `npm start` ran before the compiled build)
//   compiled  node dist/lib/server-bin/cli.js       (what `npm start` ran before the bundle: tsc's output, ~700 files)
//   bundled   node dist/server/cli.js               (what `npm start` runs now; scripts/build-lib.mjs bundles it)
//   binary    dist/gatehouse                         (npm run build:binary; skipped when missing)
// Each variant first starts once on a fresh SQLite data folder (migrations, keys) and stops; the
// measured starts reuse that folder (BENCH_STARTS, default 5; the median is kept). Resident memory
// (VmRSS of the server process, /proc) is read idle 5 s after the first answer, then again idle 5 s
// after light use (BENCH_LIGHT_REQUESTS sequential reads, default 500, of /api/v1/projects/current).
// The process is the server itself, not npm: `npm start` adds npm's own process (~50 MB) on top.
// Writes the "Start time and memory" block of docs/benchmarks.md with the machine's load.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDocSection } from './doc-section.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const LIGHT = Number(process.env.BENCH_LIGHT_REQUESTS ?? 500);
const IDLE_MS = 5000;

const VARIANTS = [
  { name: 'tsx (before: `node --import tsx server-bin/cli.ts`)', cmd: process.execPath, args: ['--import', 'tsx', 'server-bin/cli.ts'] },
  {
    name: 'compiled (before: `node dist/lib/server-bin/cli.js`)',
    cmd: process.execPath,
    args: ['dist/lib/server-bin/cli.js'],
    needs: 'dist/lib/server-bin/cli.js',
  },
  {
    name: 'bundled (now: `npm start` → `node dist/server/cli.js`)',
    cmd: process.execPath,
    args: ['dist/server/cli.js'],
    needs: 'dist/server/cli.js',
  },
  { name: 'single executable (`dist/gatehouse`)', cmd: join(root, 'dist/gatehouse'), args: [], needs: 'dist/gatehouse' },
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** CPU time (user + system, ms) the process has used: /proc/<pid>/stat fields 14 and 15, in clock ticks (100 a second). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

function freePort() {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Starts a variant on `dataDir`; resolves with the process and ms until /health first answered 200. */
async function start(variant, dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(variant.cmd, [...variant.args, '--port', String(port), '--data-dir', dataDir], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NODE_OPTIONS: '', GATEHOUSE_WORKERS: '1', GATEHOUSE_ENVIRONMENT: 'production' },
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${variant.name} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) return { child, url, ms: performance.now() - started, cpu: cpuMs(child.pid) };
    } catch {
      /* not listening yet */
    }
    await sleep(5);
  }
}

async function stop(child) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const rows = [];
for (const variant of VARIANTS) {
  if (variant.needs && !existsSync(join(root, variant.needs))) {
    console.error(`skipped ${variant.name}: ${variant.needs} is missing`);
    continue;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-startup-'));
  try {
    const first = await start(variant, dataDir);
    await stop(first.child);
    const times = [];
    const cpus = [];
    let idle = 0;
    let afterUse = 0;
    for (let i = 0; i < STARTS; i++) {
      const run = await start(variant, dataDir);
      times.push(run.ms);
      cpus.push(run.cpu);
      if (i === 0) {
        await sleep(IDLE_MS);
        idle = rssMb(run.child.pid);
        for (let n = 0; n < LIGHT; n++)
          await (
            await fetch(`${run.url}/api/v1/projects/current`, {
              headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
            })
          ).arrayBuffer();
        await sleep(IDLE_MS);
        afterUse = rssMb(run.child.pid);
      }
      await stop(run.child);
    }
    const row = { name: variant.name, firstStart: first.ms, start: median(times), cpu: median(cpus), idle, afterUse };
    rows.push(row);
    console.error(
      `${row.name}: first start ${row.firstStart.toFixed(0)} ms, start ${row.start.toFixed(0)} ms (median of ${STARTS}), CPU to first answer ${row.cpu} ms, idle ${row.idle.toFixed(0)} MB, after ${LIGHT} reads ${row.afterUse.toFixed(0)} MB`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');
const block = [
  '<!-- bench:startup:start (written by scripts/bench/startup.mjs) -->',
  '## Start time and memory (one process, SQLite)',
  '',
  `Measured ${when} UTC with \`node scripts/bench/startup.mjs\` on ${cpus().length} cores, load average ${load} (the machine is shared).`,
  `Start: spawn until \`/health\` first answers 200, on a data folder that already exists (median of ${STARTS}); first start: a fresh folder (migrations, key generation).`,
  `Resident memory (VmRSS of the server process): idle 5 s after start, and idle 5 s after ${LIGHT} sequential reads. Targets (issue 29): first answer within 1 s once built; idle under 120 MB.`,
  '',
  "CPU to first answer is the server process's own user + system time until that answer (/proc), which a busy machine does not inflate as it does the wall-clock start.",
  '',
  '| Way of running | First start | Start | CPU to first answer | Idle RSS | RSS after light use |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${(r.firstStart / 1000).toFixed(2)} s | ${(r.start / 1000).toFixed(2)} s | ${(r.cpu / 1000).toFixed(2)} s | ${r.idle.toFixed(0)} MB | ${r.afterUse.toFixed(0)} MB |`,
  ),
  '',
  "`npm start` also keeps npm's own process alive beside the server (about 50 MB more); run `node dist/server/cli.js` directly where that matters.",
  '<!-- bench:startup:end -->',
].join('\n');
console.error(`wrote ${writeDocSection('startup', block)}`);
