#!/usr/bin/env node
// Builds the hosted handler pages bundle (ui/hosted/main.tsx) into dist/ui/handler/handler.js
// (served at /handler/handler.js; scripts/build-binary.mjs embeds the dist/ui/handler folder) with esbuild:
// React aliased to preact/compat, minified, ES2020. Run by `pretest`, and by `prestart` with
// `--if-stale` (skipped when every bundle is newer than its sources) and by scripts/test.mjs; the
// server only reads the built files (esbuild is a build tool, not a run-time dependency).
import { build } from 'esbuild';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newest } from './build-lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** esbuild options of the hosted bundle. */
export function hostedBuildOptions(rootDir = root) {
  return {
    entryPoints: [join(rootDir, 'ui/hosted/main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    // The SDK's in-process transport imports node:* lazily; browsers never run it.
    external: ['node:*'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat', 'react/jsx-runtime': 'preact/jsx-runtime' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/** The bundles this script writes. */
const OUTPUTS = ['dist/ui/handler/handler.js', 'dist/ui/dashboard/dashboard-assets/dashboard.js'];
/** What the bundles are built from: the UI, what it imports (sdk/, core/), the build scripts and the locked packages. */
const INPUTS = ['ui', 'sdk', 'core', 'scripts/build-ui.mjs', 'package-lock.json'];

/**
 * True when every bundle exists and is newer than every input file, so `npm start` can skip the
 * build (the build ran on every start). A false "stale" only
 * costs a rebuild.
 */
export function bundlesUpToDate(rootDir = root) {
  const outputs = OUTPUTS.map((o) => join(rootDir, o));
  if (!outputs.every((o) => existsSync(o))) return false;
  const oldestOutput = Math.min(...outputs.map((o) => statSync(o).mtimeMs));
  return INPUTS.every((input) => newest(join(rootDir, input)) <= oldestOutput);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // `--if-stale` (prestart): nothing to do when the bundles are newer than their sources.
  if (process.argv.includes('--if-stale') && bundlesUpToDate()) {
    console.error('UI bundles are up to date (dist/ui); skipping the build.');
    process.exit(0);
  }
  mkdirSync(join(root, 'dist/ui/handler'), { recursive: true });
  const out = join(root, 'dist/ui/handler/handler.js');
  await build({ ...hostedBuildOptions(), outfile: out });
  const bytes = statSync(out).size;
  const gz = gzipSync(readFileSync(out), { level: 9 }).length;
  console.error(`built dist/ui/handler/handler.js: ${bytes} bytes, ${gz} bytes gzipped`);
  // The developer dashboard (ui/dashboard/build.mjs, owned by the dashboard): dist/ui/dashboard/.
  const dashboard = await (await import('../ui/dashboard/build.mjs')).buildDashboard(root);
  console.error(`built dist/ui/dashboard/dashboard-assets/dashboard.js: ${dashboard.bytes} bytes, ${dashboard.gzipped} bytes gzipped`);
}
