/**
 * The test runner's shared test processes (scripts/test.mjs, scripts/test-runner/): run on fixture
 * files in one slot, so that every file shares a process unless the runner decides otherwise.
 * - A file that leaves a global DOM (`window`, as happy-dom's component tests do) is followed by a
 *   fresh process for a file that is not a component test (in CI, the OpenAI client refused to
 *   start in an AI test that ran after a component test in the same process).
 * - An error that escapes a test (a timer throwing after the test ended) fails the file that was
 *   running, with the error, although node:test no longer tracks every async resource.
 * - A test declared after an `await` inside a test, which node:test then places at the top level,
 *   fails the run instead of running uncounted.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const runner = join(import.meta.dirname, '../../scripts/test.mjs');

const FIXTURES: Record<string, string> = {
  // A component test's lasting effect on the process, without happy-dom itself.
  'a-component.test.tsx': `import { it } from 'node:test';
it('leaves a global window', () => { (globalThis as Record<string, unknown>).window = {}; });`,
  'b-server.test.ts': `import assert from 'node:assert/strict';
import { it } from 'node:test';
it('sees no window', () => { assert.equal('window' in globalThis, false); });`,
  'c-escapes.test.ts': `import { it } from 'node:test';
it('starts a timer that throws after the test', () => { setTimeout(() => { throw new Error('escaped-marker'); }, 1); });
it('is still running when it throws', async () => { await new Promise((r) => setTimeout(r, 50)); });`,
  'd-late.test.ts': `import { describe, it } from 'node:test';
describe('outer', () => {
  it('declares another test after an await', async () => {
    await new Promise((r) => setTimeout(r, 5));
    it('late-marker', () => {});
  });
});`,
};

/** Runs the runner on `files` (names in FIXTURES) in one slot; answers its exit code and output. */
function run(dir: string, files: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runner, ...files.map((f) => join(dir, f))], {
      env: { ...process.env, TEST_CONCURRENCY: '1', TEST_OUTPUT: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the test runner’s shared processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-runner-'));
  for (const [name, source] of Object.entries(FIXTURES)) writeFileSync(join(dir, name), source);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a file that is not a component test a process without a DOM', async () => {
    const { code, output } = await run(dir, ['a-component.test.tsx', 'b-server.test.ts']);
    assert.equal(code, 0, output);
    assert.match(output, /2 files, 2 tests: 2 passed/);
  });

  it('fails the file an escaped error came from, with the error', async () => {
    const { code, output } = await run(dir, ['b-server.test.ts', 'c-escapes.test.ts']);
    assert.equal(code, 1, output);
    assert.match(output, /✖ \S*c-escapes\.test\.ts[\s\S]*\(escaped its tests\)[\s\S]*escaped-marker/);
    assert.match(output, /✔ \S*b-server\.test\.ts/);
  });

  it('fails a run where a test ran outside its file’s suite', async () => {
    const { code, output } = await run(dir, ['d-late.test.ts']);
    assert.equal(code, 1, output);
    assert.match(output, /the test "late-marker" ran outside its file's suite/);
  });
});
