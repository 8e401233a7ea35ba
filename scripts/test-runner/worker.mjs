// A shared test process of scripts/test.mjs: runs test files one after the other, as many as the
// runner sends, so the Node start and the ~500 modules a server test loads are paid once per
// process instead of once per file. Each file runs as one suite named after it (see
// node-test.mjs); its results reach the runner through reporter.mjs, its timing from here.
//
// Started as `node --import scripts/test-loader/register.mjs --test-reporter=<reporter.mjs>
// --test-reporter-destination=stderr worker.mjs` with GATEHOUSE_TEST_SHARED_PROCESS=1 and an IPC
// channel. Messages in: { type: 'run', file, label } and { type: 'stop' }. Messages out: ready,
// started, finished (wall and CPU of this process for the file, and whether the process has a global
// DOM since) and, from the reporter, report.
import { appendFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
// First, so that node:test does not get its async tracking hook (see the module); node:test is
// then loaded by a dynamic import (a static one would load it before any module here runs).
import { beginFile, endFile } from './async-attribution.mjs';

const { describe, holdDeclarations, it, takeDeclarations } = await import('./node-test.mjs');

if (!process.send) throw new Error('scripts/test-runner/worker.mjs runs under scripts/test.mjs (it needs an IPC channel).');

/** @param {string} file @param {string} label */
async function runFile(file, label) {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  beginFile();
  holdDeclarations();
  let loadError;
  try {
    await import(pathToFileURL(resolvePath(file)).href);
  } catch (error) {
    loadError = error;
  }
  const declarations = takeDeclarations();
  // At the top level, describe() settles once the suite has run, its after hooks included (failed
  // or not): the next file starts only then.
  await describe(label, () => {
    if (loadError === undefined) {
      for (const declare of declarations) declare();
      return;
    }
    it('loads', () => {
      throw loadError;
    });
  });
  const escaped = endFile();
  const cpu = process.cpuUsage(cpuStart);
  // `dom`: the process now has a global DOM (a component test installed happy-dom's window as
  // `globalThis.window`, for the rest of the process): libraries that look for `window`
  // (the OpenAI client, the official SDK's page tracker) would behave as in a browser.
  return { wallMs: performance.now() - start, cpuMs: (cpu.user + cpu.system) / 1000, dom: 'window' in globalThis, escaped };
}

/** @type {Array<(message: any) => void>} */
const waiting = [];
/** @type {any[]} */
const inbox = [];
process.on('message', (message) => {
  const next = waiting.shift();
  if (next) next(message);
  else inbox.push(message);
});
const receive = () => (inbox.length ? Promise.resolve(inbox.shift()) : new Promise((resolve) => waiting.push(resolve)));

// The runner gone (killed, crashed): stop rather than run on unobserved.
let stopping = false;
process.on('disconnect', () => {
  if (!stopping) process.exit(1);
});

process.send({ type: 'ready' });
for (;;) {
  const message = await receive();
  if (message.type !== 'run') break;
  process.send({ type: 'started', file: message.label });
  // TEST_CPU_PROF (scripts/test.mjs): which file starts when, on the profiles' clock (monotonic µs).
  if (process.env.TEST_CPU_PROF)
    appendFileSync(join(process.env.TEST_CPU_PROF, 'files.log'), `${process.pid} ${process.hrtime.bigint() / 1000n} ${message.label}\n`);
  const timing = await runFile(message.file, message.label);
  process.send({ type: 'finished', file: message.label, ...timing });
}
// Let the reporter deliver the last file's report, then close the channel: the process ends
// when the tests have left nothing running (as a test process of `node --test` does).
stopping = true;
setImmediate(() => process.disconnect());
