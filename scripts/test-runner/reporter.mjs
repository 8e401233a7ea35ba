// The node:test reporter of a shared test process (scripts/test-runner/worker.mjs): each test file
// runs as one top-level suite named after the file; when that suite ends, its counts (tests as
// `node --test` counts them: suites not included), every failure with its error, and the list of
// its tests go to scripts/test.mjs over the IPC channel. It writes nothing itself.
import { inspect } from 'node:util';

/** @param {unknown} error */
function describeError(error) {
  if (!error || typeof error !== 'object') return String(error);
  const e = /** @type {{ failureType?: string, cause?: unknown, code?: string }} */ (error);
  // node:test wraps what the test threw (ERR_TEST_FAILURE, the original as `cause`).
  const shown = e.code === 'ERR_TEST_FAILURE' && e.cause !== undefined ? e.cause : error;
  return inspect(shown, { depth: 6, colors: false, breakLength: 120 });
}

const newCounts = () => ({ tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 });

export default async function* sharedProcessReporter(source) {
  /** @type {string[]} names of the tests being reported, by nesting */
  const path = [];
  let counts = newCounts();
  /** @type {{ name: string, error: string }[]} */
  let failures = [];
  /** @type {string[]} */
  let lines = [];
  /** @type {number[]} the line of each test being reported, by nesting */
  const lineOf = [];
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:start') {
      path.length = data.nesting;
      path.push(data.name);
      if (data.nesting === 0) {
        counts = newCounts();
        failures = [];
        lines = [];
      } else {
        lineOf[data.nesting] = lines.length;
        lines.push(`${'  '.repeat(data.nesting - 1)}${data.name}`);
      }
      continue;
    }
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const failed = type === 'test:fail';
    const isSuite = data.details?.type === 'suite';
    const error = failed ? data.details?.error : undefined;
    const failureType = error?.failureType;
    if (data.nesting === 0) {
      // The file's suite: its own error only when it is not just "a test inside failed".
      if (failed && failureType !== 'subtestsFailed') failures.push({ name: '(the file itself)', error: describeError(error) });
      process.send?.({
        type: 'report',
        file: data.name,
        passed: !failed,
        counts,
        failures,
        lines,
        durationMs: data.details?.duration_ms ?? 0,
      });
      continue;
    }
    const name = [...path.slice(1, data.nesting), data.name].join(' › ');
    const mark = data.skip !== undefined ? '﹣' : data.todo !== undefined ? '…' : failed ? '✖' : '✔';
    const line = `${'  '.repeat(data.nesting - 1)}${mark} ${data.name}${isSuite ? '' : ` (${Math.round(data.details?.duration_ms ?? 0)} ms)`}`;
    if (lineOf[data.nesting] !== undefined) lines[lineOf[data.nesting]] = line;
    else lines.push(line);
    if (isSuite) {
      // A suite's hooks failing (before, after) is a failure of its own.
      if (failed && failureType !== 'subtestsFailed') {
        failures.push({ name, error: describeError(error) });
      }
      continue;
    }
    counts.tests++;
    if (data.skip !== undefined) counts.skipped++;
    else if (data.todo !== undefined) counts.todo++;
    else if (failed && failureType === 'cancelledByParent') counts.cancelled++;
    else if (failed) counts.fail++;
    else counts.pass++;
    if (failed && data.todo === undefined) failures.push({ name, error: describeError(error) });
  }
}
