// Imported by scripts/test-runner/worker.mjs before `node:test`: node:test's async resource
// tracking reduced to the test objects themselves, and errors that escape a test (an uncaught
// exception, an unhandled rejection) attributed to the file running at the time.
//
// node:test (Node 20, lib/internal/test_runner/harness.js) enables an `async_hooks` hook with
// `init` and `destroy` callbacks for the whole process: every promise and every other async
// resource a test creates is recorded in a map (async id → test) and given a destroy callback.
// The map serves two things: finding the parent of `it`/`describe`/`before`… from the current
// execution context, and failing the test whose asynchronous work raised an escaped error.
// Sampled with --cpu-prof over a whole CI run, that bookkeeping (the hook's `init`/`destroy`,
// `registerDestroyHook`, `promiseInitHookWithDestroyTracking`, `trackPromise`) took about a tenth
// of the test processes' time; measured on two server test files (both databases, 3 runs each), it is
// 9% of their CPU.
// Here the harness is told only of the tests themselves (async resources of type `Test`, whose
// callbacks node:test runs in their own async scope), and forgets them when the file ends, so:
// - a test declared synchronously inside a `describe` or test callback finds its parent as before;
//   one declared after an `await` inside such a callback would land at the top level, which the
//   runner reports as a failure (scripts/test.mjs: "ran outside its file's suite");
// - an escaped error fails the file that was running (a shared process runs one file at a time),
//   with the error, instead of the one test.
// TEST_NODE_ASYNC_TRACKING=1 restores node:test's own hook.
import asyncHooks from 'node:async_hooks';

const createHook = asyncHooks.createHook;
/** @type {{ destroy?: (asyncId: number) => void } | undefined} node:test's callbacks */
let harness;
/** @type {number[]} the async ids the harness was told of since the current file started */
let told = [];
asyncHooks.createHook = function createHookForTestHarness(callbacks) {
  if (harness || process.env.TEST_NODE_ASYNC_TRACKING === '1' || !(new Error().stack ?? '').includes('internal/test_runner/harness'))
    return createHook.call(this, callbacks);
  harness = callbacks;
  const init = callbacks.init;
  return createHook({
    init(asyncId, type, triggerAsyncId, resource) {
      if (type !== 'Test') return;
      told.push(asyncId);
      init(asyncId, type, triggerAsyncId, resource);
    },
  });
};

/** @type {string[] | undefined} what escaped the tests of the file running now */
let escaped;

/** Starts collecting escaped errors for a file. */
export function beginFile() {
  escaped = [];
}

/** Ends collecting and answers the escaped errors, as text (empty when none). */
export function endFile() {
  // What node:test's destroy callback would have done as each resource went: forget them all now.
  const ids = told;
  told = [];
  if (harness?.destroy) for (const id of ids) harness.destroy(id);
  const errors = escaped ?? [];
  escaped = undefined;
  return errors;
}

/** @param {string} kind @param {unknown} error */
function record(kind, error) {
  const text = error instanceof Error ? (error.stack ?? String(error)) : String(error);
  if (escaped) escaped.push(`${kind}: ${text}`);
  else process.stderr.write(`${kind} between test files: ${text}\n`);
}

// node:test's own handlers (added when its root test is made) still report the error as a
// diagnostic and set the exit code; these keep which file it came from.
process.on('uncaughtException', (error) => record('uncaught exception', error));
process.on('unhandledRejection', (reason) => record('unhandled rejection', reason));
