// `node --import ./scripts/test-loader/register.mjs`: the test runner's TypeScript loader
// (hooks.mjs). Source maps are on so stack traces name the .ts lines.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
// GATEHOUSE_TEST_SHARED_PROCESS=1 (set by scripts/test.mjs for its shared test processes only):
// `node:test` resolves to the runner's version that gives each test file a suite of its own.
const shared = process.env.GATEHOUSE_TEST_SHARED_PROCESS === '1';
delete process.env.GATEHOUSE_TEST_SHARED_PROCESS; // not inherited by what the tests spawn
register('./hooks.mjs', import.meta.url, {
  data: {
    nodeTestShim: shared ? new URL('../test-runner/node-test.mjs', import.meta.url).href : undefined,
  },
});
