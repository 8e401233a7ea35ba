#!/usr/bin/env node
// Runs every *.test.ts (or the files/folders given) with node:test, TypeScript compiled by
// scripts/test-loader (esbuild).
// TEST_DIALECTS (default "sqlite") picks the databases; CI runs "sqlite,postgres".
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
process.env.TEST_DIALECTS ??= 'sqlite';
// Servers the tests spawn run as one process unless a test asks for workers (test/ops/workers.test.ts):
// `--workers auto` would start one per core for each of them on a shared machine.
process.env.GATEHOUSE_WORKERS ??= '1';
console.error(`Running ${files.length} test files on ${process.env.TEST_DIALECTS}.`);
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// TypeScript through scripts/test-loader (esbuild, cached by content hash): about 30% less CPU
// per test process than tsx, which every file pays once. TEST_LOADER=tsx uses tsx instead.
const loader = process.env.TEST_LOADER === 'tsx' ? 'tsx' : fileURLToPath(new URL('./test-loader/register.mjs', import.meta.url));
const r = spawnSync(
  process.execPath,
  ['--import', loader, '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
