#!/usr/bin/env node
// Compiles the server package's TypeScript (core/, adapters/, server-bin/, sdk/, ui/) to JavaScript
// plus `.d.ts` under dist/lib/ with tsc (tsconfig.build.json: relative `.ts` imports rewritten to
// `.js`), so `npm start`, `bin/gatehouse.mjs` and apps importing `gatehouse-server/server` run on
// plain Node with no TypeScript loader. Tests keep running the
// sources through tsx.
//
// It also bundles the server that `npm start` and bin/gatehouse.mjs run into dist/server/ (esbuild,
// as the single executable does: one file loads in a fraction of the time Node takes to resolve
// and read the ~700 separate modules; see bundleServer).
//
// `node scripts/build-lib.mjs [--if-stale]`: with `--if-stale` (prestart, prepack) nothing is done
// when the last build is newer than every input, as scripts/build-ui.mjs does for the UI bundles.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withLock } from './build-once.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The bundled server `npm start` runs (bundleServer). */
export const SERVER_BUNDLE = 'dist/server/cli.js';
/** Written last by a successful build; its time is the build's. */
export const LIB_STAMP = 'dist/lib/.built';
/** What the build reads. */
const INPUTS = [
  'core',
  'adapters',
  'server-bin',
  'sdk',
  'ui',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
  'scripts/build-lib.mjs',
];

/** Newest modification time (ms) of a file or any file below a folder (node_modules skipped). */
export function newest(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) if (entry !== 'node_modules') max = Math.max(max, newest(join(path, entry)));
  return max;
}

/** True when dist/lib and the server bundle were built after the last change to any input. */
export function libUpToDate(rootDir = root) {
  const stamp = join(rootDir, LIB_STAMP);
  if (!existsSync(stamp) || !existsSync(join(rootDir, SERVER_BUNDLE))) return false;
  const built = statSync(stamp).mtimeMs;
  return INPUTS.every((input) => newest(join(rootDir, input)) <= built);
}

/**
 * Worker threads' entry points, bundled beside the server as `<name>.js`: the pools find them
 * with `new URL('./<name>.js', import.meta.url)`, which inside the bundle is dist/server/cli.js
 * (core/emails/render-pool.ts, core/lib/deadline-pool.ts `workerBeside`).
 */
const WORKER_ENTRIES = { 'render-worker': 'core/emails/render-worker.ts', 'cel-worker': 'core/sign-up-rules/cel-worker.ts' };

/**
 * Packages left out of the bundle and loaded from node_modules as usual: native addons and the
 * modules that find files next to themselves (better-sqlite3, argon2, QuickJS's wasm, esbuild's
 * executable), and the large ones imported only on first use (payments, the assistant, passkeys).
 */
const EXTERNAL = [
  'better-sqlite3',
  'argon2',
  'esbuild',
  'quickjs-emscripten',
  '@jitl/*',
  'stripe',
  'openai',
  '@simplewebauthn/server',
  'pg-native',
  'tsx',
  'tsx/*',
];

/**
 * Bundles server-bin/cli.ts and the worker entries into dist/server/ (ESM, one file each) with
 * esbuild. Every module inside shares the bundle's `import.meta.url`; the places that locate files
 * from it (server-bin/page-shell.ts ROOT, the worker pools) know this layout. CommonJS packages
 * inside call `require` for Node's built-ins, which the banner provides.
 */
export async function bundleServer(rootDir = root) {
  const esbuild = await import('esbuild');
  const outdir = join(rootDir, dirname(SERVER_BUNDLE));
  rmSync(outdir, { recursive: true, force: true });
  const entryPoints = { cli: join(rootDir, 'server-bin', 'cli.ts') };
  for (const [name, file] of Object.entries(WORKER_ENTRIES)) entryPoints[name] = join(rootDir, file);
  await esbuild.build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minifySyntax: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
    external: EXTERNAL,
    banner: {
      js: "import { createRequire as __gatehouseRequire } from 'node:module'; const require = __gatehouseRequire(import.meta.url);",
    },
  });
}

/** Runs tsc on tsconfig.build.json into a clean dist/lib; throws when tsc reports an error. */
export async function buildLib(rootDir = root) {
  rmSync(join(rootDir, 'dist/lib'), { recursive: true, force: true });
  const typescript = dirname(createRequire(join(rootDir, 'package.json')).resolve('typescript/package.json'));
  const tsc = join(typescript, 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(rootDir, 'tsconfig.build.json')], { cwd: rootDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${result.status})`);
  await bundleServer(rootDir);
  writeFileSync(join(rootDir, LIB_STAMP), `${new Date().toISOString()}\n`);
}

/** Where a build in progress holds its lock (a folder: mkdir is atomic across processes). */
const LOCK = 'dist/.build-lib.lock';

/**
 * Builds dist/lib and the server bundle unless they are up to date, one process at a time: test
 * files run in parallel processes, and a build empties dist/server while another may be reading
 * it. Waits for a build another process holds (scripts/build-once.mjs withLock), then checks again.
 */
export async function ensureLibBuilt(rootDir = root) {
  if (libUpToDate(rootDir)) return;
  await withLock(join(rootDir, LOCK), async () => {
    if (!libUpToDate(rootDir)) await buildLib(rootDir);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--if-stale') && libUpToDate()) {
    console.error('Compiled server is up to date (dist/lib); skipping the build.');
    process.exit(0);
  }
  const started = Date.now();
  await buildLib();
  console.error(`built dist/lib (JavaScript + .d.ts) and ${SERVER_BUNDLE} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
