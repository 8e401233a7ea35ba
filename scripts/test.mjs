#!/usr/bin/env node
// Runs every *.test.ts (or the files/folders given) with node:test, TypeScript compiled by
// scripts/test-loader (esbuild).
// TEST_DIALECTS (default "sqlite") picks the databases; CI runs "sqlite,postgres".
//
// Test files share processes: 2 test processes, more while the machine's CPU is idle (up to
// TEST_MAX_CONCURRENCY), or exactly TEST_CONCURRENCY (scripts/test-runner/worker.mjs) each run
// file after file, longest first, so Node's start and
// module loading (about 3.3 s CPU for a server test's ~500 modules) are paid once per process, not
// once per file. Each file still runs as a unit of its own: its top-level declarations and hooks
// form one suite named after it (scripts/test-runner/node-test.mjs), files run one at a time in a
// process, and a file whose first lines hold `// test-runner: own process` (it changes something
// process-wide that cannot be undone) gets a fresh process. The report: one line per file, the
// failures with their errors and the file's output, then the totals and the slowest files.
// Component tests (*.test.tsx) leave happy-dom's window as the process's global DOM, so a process
// that ran one takes only component tests afterwards (see `nextItem`). Errors that escape a
// test fail the file that was running (scripts/test-runner/async-attribution.mjs).
// TEST_OUTPUT=all prints every file's output and tests; TEST_ISOLATION=process runs one
// `node --test` process per file, as before. TEST_CPU_PROF=<dir> writes a V8 CPU profile of each
// test process into <dir>, with files.log (pid, monotonic µs, file) telling which file ran when.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, fillCache } from './test-loader/compile.mjs';
import { idleSampler } from './test-runner/idle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['core', 'adapters', 'server-bin', 'sdk', 'ui', 'test', 'scripts'];
const files = [];
const walk = (p) => {
  let st;
  try {
    st = statSync(p);
  } catch {
    return;
  }
  if (st.isDirectory()) {
    if (p.includes('node_modules')) return;
    for (const e of readdirSync(p)) walk(join(p, e));
  } else if (/\.test\.tsx?$/.test(p)) files.push(p);
};
roots.forEach(walk);
if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}
files.sort();
// The servers the tests start read the prebuilt UI bundles (dist/ui): build them when stale, as `pretest` does.
const ui = spawnSync(process.execPath, [join(import.meta.dirname, 'build-ui.mjs'), '--if-stale'], { stdio: 'inherit' });
if (ui.status !== 0) process.exit(ui.status ?? 1);
// Every TypeScript file compiled into the test loader's cache at once, before the test processes
// start: otherwise the processes that start together each compile the modules they share.
if (process.env.TEST_LOADER !== 'tsx') {
  const sources = [];
  const collect = (p) => {
    for (const e of readdirSync(p, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const full = join(p, e.name);
      if (e.isDirectory()) collect(full);
      else if (/\.(tsx?|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) sources.push(full);
    }
  };
  for (const dir of ['core', 'adapters', 'server-bin', 'sdk', 'ui', 'test', 'scripts']) collect(join(root, dir));
  mkdirSync(CACHE_DIR, { recursive: true });
  await fillCache(CACHE_DIR, sources);
}
process.env.TEST_DIALECTS ??= 'sqlite';
// Servers the tests spawn run as one process unless a test asks for workers (test/ops/workers.test.ts):
// `--workers auto` would start one per core for each of them on a shared machine.
process.env.GATEHOUSE_WORKERS ??= '1';
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? '2') || 2);
// Test processes wait much of the time (spawned servers starting, timers, PostgreSQL, browsers):
// measured over the core, ops and CLI files, each of the two slots had no runnable thread for
// 40–50% of its time. Unless TEST_CONCURRENCY fixes the count, another test process is started
// while the whole machine's CPU stays idle (scripts/test-runner/idle.mjs), up to
// TEST_MAX_CONCURRENCY (default: twice the cores). A machine shared with other work stays at 2.
const adaptive = process.env.TEST_CONCURRENCY === undefined && process.env.TEST_ADAPTIVE !== '0';
const maxConcurrency = Math.max(concurrency, Number(process.env.TEST_MAX_CONCURRENCY ?? 2 * availableParallelism()) || concurrency);
// TypeScript through scripts/test-loader (esbuild, cached by content hash): about 30% less CPU
// per test process than tsx, which every process pays once. TEST_LOADER=tsx uses tsx instead
// (one process per file then: the shared processes need the loader's `node:test` resolution).
const loader = process.env.TEST_LOADER === 'tsx' ? 'tsx' : fileURLToPath(new URL('./test-loader/register.mjs', import.meta.url));

if (process.env.TEST_ISOLATION === 'process' || process.env.TEST_LOADER === 'tsx') {
  console.error(`Running ${files.length} test files on ${process.env.TEST_DIALECTS}, one process each.`);
  const r = spawnSync(
    process.execPath,
    ['--import', loader, '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
    { stdio: 'inherit' },
  );
  process.exit(r.status ?? 1);
}

const label = (file) => relative(root, resolve(file)).split('\\').join('/');
const OWN_PROCESS = /^\/\/ test-runner: own process\b/m;
const ownProcess = (file) => OWN_PROCESS.test(readFileSync(file, 'utf8').slice(0, 4000));
// Longest first, from the wall times of the last run on this machine (kept under node_modules/.cache),
// else from scripts/test-runner/wall-times.json (a CI run's times, committed, so a fresh clone, as in
// CI, also starts the long files first instead of leaving them for a tail where one process runs);
// files never timed go first, the ones that start browsers, builds or servers first among them.
const timesFile = join(root, 'node_modules', '.cache', 'gatehouse-test-times.json');
const readTimes = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};
const lastTimes = { ...readTimes(join(import.meta.dirname, 'test-runner', 'wall-times.json')), ...readTimes(timesFile) };
const HEAVY = /^test\/(browser|examples|packages|ops|cli|binary)\/|^test\/security\/limits/;
const weight = (l) => lastTimes[l] ?? (HEAVY.test(l) ? 2e9 : 1e9);
const queue = files.map((file) => ({ file, label: label(file), own: ownProcess(file) })).sort((a, b) => weight(b.label) - weight(a.label));

const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_S ?? 1800) * 1000;
const showAll = process.env.TEST_OUTPUT === 'all';
const startedAt = performance.now();
const results = new Map(); // label → { passed, counts, failures, wallMs, cpuMs, output }
const problems = []; // failures not tied to a test: a process that crashed, hung or exited non-zero
console.error(
  `Running ${files.length} test files on ${process.env.TEST_DIALECTS} in ${concurrency} shared test processes${adaptive ? ` (more, up to ${maxConcurrency}, while the CPU is idle)` : ''}.`,
);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
function print(result) {
  const c = result.counts;
  const mark = result.passed ? '✔' : '✖';
  const extra = [
    c.skipped && `${c.skipped} skipped`,
    c.todo && `${c.todo} todo`,
    c.fail && `${c.fail} failed`,
    c.cancelled && `${c.cancelled} cancelled`,
  ]
    .filter(Boolean)
    .join(', ');
  const lines = [
    `${mark} ${result.label}  ${c.tests} tests${extra ? ` (${extra})` : ''}  ${seconds(result.wallMs)}, ${seconds(result.cpuMs)} CPU`,
  ];
  if (showAll || !result.passed) {
    if (showAll) lines.push(...result.lines.map((l) => `    ${l}`));
    for (const f of result.failures) lines.push(`  ✖ ${f.name}`, ...f.error.split('\n').map((l) => `      ${l}`));
    const output = result.output.join('').trimEnd();
    if (output) lines.push(`  output of ${result.label}:`, ...output.split('\n').map((l) => `  | ${l}`));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

const EMPTY_COUNTS = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
/** Stops a test process and what its tests started (it leads a process group of its own). */
const killGroup = (child) => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
};
/** The test processes running now: stopped with the runner (Ctrl-C, or a CI job cancelled). */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    process.exit(130);
  });
}

/** A shared test process: `run(item)` resolves when the file has been reported. */
function startWorker() {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TEST_CPU_PROF}`, '--cpu-prof-interval=2000'] : []),
      '--import',
      loader,
      `--test-reporter=${new URL('./test-runner/reporter.mjs', import.meta.url).href}`,
      '--test-reporter-destination=stderr',
      fileURLToPath(new URL('./test-runner/worker.mjs', import.meta.url)),
    ],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, GATEHOUSE_TEST_SHARED_PROCESS: '1' }, detached: true },
  );
  running.add(child);
  child.on('exit', () => running.delete(child));
  const worker = { child, current: undefined, output: [], exited: undefined, ready: undefined };
  const capture = (chunk) => (worker.current ? worker.current.output : worker.output).push(chunk.toString());
  child.stdout.on('data', capture);
  child.stderr.on('data', capture);
  let onReady;
  worker.ready = new Promise((r) => (onReady = r));
  worker.exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  child.on('error', (error) => problems.push(`a test process: ${error.message}`));
  child.on('message', (message) => {
    const job = worker.current;
    if (message.type === 'ready') onReady();
    else if (message.type === 'report' && message.file !== job?.label) {
      // A top-level test that is not a file's suite: declared where node:test could not find its
      // parent (scripts/test-runner/async-attribution.mjs), so it ran outside its file's suite.
      const why = `the test "${message.file}" ran outside its file's suite (declared after an await?)`;
      if (job) (job.foreign ??= []).push({ name: '(a test outside the file)', error: why });
      else problems.push(why);
    } else if (!job || message.file !== job.label) return;
    else if (message.type === 'finished') {
      job.wallMs = message.wallMs;
      job.cpuMs = message.cpuMs;
      job.escaped = message.escaped ?? [];
      worker.dom ||= message.dom === true;
      if (worker.dom) domWorkers.add(worker);
      job.settle();
    } else if (message.type === 'report') {
      job.report = message;
      job.settle();
    }
  });
  worker.exited.then(({ code, signal }) =>
    worker.current?.abort(`its test process ended (${signal ?? `exit code ${code}`}) before the file finished`),
  );
  worker.run = (item) =>
    new Promise((done) => {
      const job = { ...item, output: [], report: undefined, wallMs: undefined, cpuMs: 0 };
      worker.current = job;
      const timer = setTimeout(() => {
        job.abort(`no result after ${seconds(fileTimeoutMs)} (TEST_FILE_TIMEOUT_S): its test process was stopped`);
        killGroup(child);
      }, fileTimeoutMs);
      const finish = (result) => {
        clearTimeout(timer);
        worker.current = undefined;
        results.set(job.label, result);
        print(result);
        done(result);
      };
      job.settle = () => {
        if (job.report === undefined || job.wallMs === undefined) return;
        const r = job.report;
        // Errors that escaped the file's tests (scripts/test-runner/async-attribution.mjs) fail it.
        const escaped = [...job.escaped.map((error) => ({ name: '(escaped its tests)', error })), ...(job.foreign ?? [])];
        finish({
          label: job.label,
          passed: r.passed && r.counts.fail === 0 && r.counts.cancelled === 0 && escaped.length === 0,
          counts: r.counts,
          failures: [...r.failures, ...escaped],
          lines: r.lines,
          wallMs: job.wallMs,
          cpuMs: job.cpuMs,
          output: job.output,
        });
      };
      job.abort = (why) => {
        if (worker.current !== job) return;
        const r = job.report;
        finish({
          label: job.label,
          passed: false,
          counts: r?.counts ?? EMPTY_COUNTS,
          failures: [...(r?.failures ?? []), { name: '(the file itself)', error: why }],
          lines: r?.lines ?? [],
          wallMs: job.wallMs ?? performance.now() - job.startedAt,
          cpuMs: job.cpuMs,
          output: job.output,
        });
      };
      job.startedAt = performance.now();
      if (child.exitCode !== null || child.signalCode !== null) job.abort('its test process could not start');
      else child.send({ type: 'run', file: job.file, label: job.label });
    });
  /** Tells the process there is nothing more; a problem when it then fails to end cleanly. */
  worker.stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.send({ type: 'stop' });
    const timeout = new Promise((r) => setTimeout(() => r('timeout'), 30_000).unref());
    const ended = await Promise.race([worker.exited, timeout]);
    const after = worker.output.join('').trimEnd();
    if (ended === 'timeout') {
      killGroup(child);
      problems.push(
        `a test process did not end 30 s after its last file (something a test started is still running); its files: ${worker.files.join(', ')}${after ? `\n${after}` : ''}`,
      );
    } else if (ended.code !== 0 && worker.files.every((f) => results.get(f)?.passed)) {
      problems.push(
        `a test process ended with ${ended.signal ?? `exit code ${ended.code}`} after its files passed; its files: ${worker.files.join(', ')}${after ? `\n${after}` : ''}`,
      );
    }
  };
  worker.files = [];
  return worker;
}

/**
 * Component tests (`*.test.tsx`) install happy-dom's window as the process's global DOM, which
 * stays: a process that has one runs only component tests from then on, and is replaced by a fresh
 * process for any other file (libraries that find a `window` act as in a browser: the OpenAI client
 * refuses to start, the official SDK starts its page tracker).
 */
const DOM_FILE = /\.test\.tsx$/;
const domWorkers = new Set();
function nextItem(shared) {
  const isDom = (item) => DOM_FILE.test(item.label) && !item.own;
  // A process with a DOM takes the component tests; while one runs, the others leave them to it
  // (so that few processes need replacing when the component tests run out).
  let index = -1;
  if (shared?.dom) index = queue.findIndex(isDom);
  else if ([...domWorkers].some((w) => w !== shared && w.child.exitCode === null)) index = queue.findIndex((item) => !isDom(item));
  return queue.splice(Math.max(index, 0), 1)[0];
}

async function slot() {
  let shared;
  while (queue.length) {
    const item = nextItem(shared);
    if (shared?.dom && !DOM_FILE.test(item.label)) {
      domWorkers.delete(shared);
      await shared.stop();
      shared = undefined;
    }
    if (item.own) {
      const worker = startWorker();
      await worker.ready;
      worker.files.push(item.label);
      await worker.run(item);
      await worker.stop();
      continue;
    }
    if (!shared || shared.child.exitCode !== null || shared.child.signalCode !== null) {
      shared = startWorker();
      await Promise.race([shared.ready, shared.exited]);
    }
    shared.files.push(item.label);
    await shared.run(item);
  }
  await shared?.stop();
}
const slots = Array.from({ length: Math.min(concurrency, queue.length) }, slot);
if (adaptive) {
  const cpuIdle = idleSampler();
  // Every 2 s: one more test process when over 40% of the machine's CPU was idle in the last 4 s
  // (e.g. 0.8 of 2 cores), files are waiting and memory allows; then 10 s to let it load.
  let quietUntil = performance.now() + 10_000;
  const grow = setInterval(() => {
    const idle = cpuIdle();
    if (idle === undefined || queue.length === 0 || slots.length >= maxConcurrency) return;
    if (performance.now() < quietUntil || idle < 0.4 || freemem() < 1024 ** 3) return;
    slots.push(slot());
    quietUntil = performance.now() + 10_000;
  }, 2_000);
  grow.unref();
}
// Slots started later join the list: wait until every one has ended.
for (let done = 0; done < slots.length; ) await Promise.all(slots.slice(done, (done = slots.length)));

const all = [...results.values()];
const total = { ...EMPTY_COUNTS };
for (const r of all) for (const k of Object.keys(total)) total[k] += r.counts[k];
const failed = all.filter((r) => !r.passed);
const cpuMs = all.reduce((s, r) => s + r.cpuMs, 0);
const wallMs = performance.now() - startedAt;
try {
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  writeFileSync(
    timesFile,
    JSON.stringify(
      { ...lastTimes, ...Object.fromEntries(all.filter((r) => !r.label.startsWith('../')).map((r) => [r.label, Math.round(r.wallMs)])) },
      null,
      1,
    ),
  );
} catch {}
const slowest = [...all].sort((a, b) => b.wallMs - a.wallMs).slice(0, 10);
const out = [
  '',
  `Slowest files: ${slowest.map((r) => `${r.label} ${seconds(r.wallMs)}`).join(', ')}`,
  `${all.length} files, ${total.tests} tests: ${total.pass} passed, ${total.fail} failed, ${total.cancelled} cancelled, ${total.skipped} skipped, ${total.todo} todo`,
  `${seconds(wallMs)} wall, ${seconds(cpuMs)} CPU in the test processes (not counting what they spawn), ${process.env.TEST_DIALECTS}, ${slots.length} test process slot(s)`,
];
for (const p of problems) out.push(`✖ ${p}`);
if (failed.length) out.push(`✖ ${failed.length} failing file(s): ${failed.map((r) => r.label).join(', ')}`);
process.stdout.write(`${out.join('\n')}\n`);
process.exit(failed.length || problems.length ? 1 : 0);
