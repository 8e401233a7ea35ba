#!/usr/bin/env node
// Compiles the server package's TypeScript (core/, adapters/, server-bin/, sdk/, ui/) to JavaScript
// plus `.d.ts` under dist/lib/ with tsc (tsconfig.build.json: relative `.ts` imports rewritten to
// `.js`), so `npm start`, `bin/gatehouse.mjs` and apps importing `gatehouse-server/server` run on
// plain Node with no TypeScript loader. Tests keep running the
// sources through tsx.
//
// `node scripts/build-lib.mjs [--if-stale]`: with `--if-stale` (prestart, prepack) nothing is done
// when the last build is newer than every input, as scripts/build-ui.mjs does for the UI bundles.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Written last by a successful build; its time is the build's. */
export const LIB_STAMP = 'dist/lib/.built';
/** What the build reads. */
const INPUTS = ['core', 'adapters', 'server-bin', 'sdk', 'ui', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/build-lib.mjs'];

/** Newest modification time (ms) of a file or any file below a folder (node_modules skipped). */
export function newest(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) if (entry !== 'node_modules') max = Math.max(max, newest(join(path, entry)));
  return max;
}

/** True when dist/lib was built after the last change to any input. */
export function libUpToDate(rootDir = root) {
  const stamp = join(rootDir, LIB_STAMP);
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return INPUTS.every((input) => newest(join(rootDir, input)) <= built);
}

/** Runs tsc on tsconfig.build.json into a clean dist/lib; throws when tsc reports an error. */
export function buildLib(rootDir = root) {
  rmSync(join(rootDir, 'dist/lib'), { recursive: true, force: true });
  const typescript = dirname(createRequire(join(rootDir, 'package.json')).resolve('typescript/package.json'));
  const tsc = join(typescript, 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(rootDir, 'tsconfig.build.json')], { cwd: rootDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${result.status})`);
  writeFileSync(join(rootDir, LIB_STAMP), `${new Date().toISOString()}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--if-stale') && libUpToDate()) {
    console.error('Compiled server is up to date (dist/lib); skipping the build.');
    process.exit(0);
  }
  const started = Date.now();
  buildLib();
  console.error(`built dist/lib (JavaScript + .d.ts) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
