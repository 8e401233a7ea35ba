#!/usr/bin/env node
// Builds the hosted handler pages (ui/hosted/main.tsx) into dist/ui/handler/ with esbuild: the entry
// handler.js (served at /handler/handler.js), the chunks it and its on-demand pages import under
// chunks/ (content-hashed names, served at /handler/chunks/*), and handler.json listing them (what the
// server preloads and serves; server-bin/hosted-pages.ts). scripts/build-binary.mjs embeds the whole
// dist/ui/handler folder. React aliased to preact/compat, minified, ES2020, ES modules with code
// splitting. Run by `pretest`, and by `prestart` with `--if-stale` (skipped when every bundle is newer
// than its sources) and by scripts/test.mjs; the server only reads the built files (esbuild is a
// build tool, not a run-time dependency).
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newest } from './build-lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The hosted pages' output folder, relative to the package root. */
const HOSTED_DIR = 'dist/ui/handler';

/** esbuild options of the hosted bundle: entry `handler.js`, shared and on-demand code in `chunks/`. */
export function hostedBuildOptions(rootDir = root) {
  return {
    entryPoints: { handler: join(rootDir, 'ui/hosted/main.tsx') },
    absWorkingDir: rootDir,
    outdir: join(rootDir, HOSTED_DIR),
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    metafile: true,
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
    // V8's explicit compile hint (v8.dev/blog/explicit-compile-hints): compile every function while
    // the script streams in, off the main thread, instead of each one on its first call on the main
    // thread. Most of what sign-in loads runs on load; the main thread's time until the form is usable
    // fell from about 44 to 39 ms (CPU time, unthrottled), for about 7 ms more on a background thread.
    banner: { js: '//# allFunctionsCalledOnLoad' },
  };
}

/** The server's render of sign-in and sign-up (ui/hosted/server-render.tsx), relative to the package root. */
export const HOSTED_SSR_FILE = 'dist/ui/hosted-ssr/render.cjs';

/**
 * esbuild options of the server's render of the hosted sign-in and sign-up pages: one CommonJS
 * file for Node with no imports (preact and preact-render-to-string inside), which the server
 * loads as text and runs (server-bin/hosted-render.ts), from disk or the executable's assets.
 */
export function hostedServerRenderOptions(rootDir = root) {
  const browser = hostedBuildOptions(rootDir);
  return {
    entryPoints: [join(rootDir, 'ui/hosted/server-render.tsx')],
    absWorkingDir: rootDir,
    outfile: join(rootDir, HOSTED_SSR_FILE),
    bundle: true,
    minify: true,
    format: 'cjs',
    target: 'node20',
    platform: 'node',
    external: ['node:*'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    alias: browser.alias,
    define: browser.define,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/**
 * Builds the hosted pages into `dist/ui/handler/` (chunks of an earlier build removed first) and
 * writes `handler.json`: `preload`, the chunks the entry imports directly or through other chunks
 * (the page preloads them with the entry), and `chunks`, every chunk (the only ones the server
 * serves), as paths relative to the folder (`chunks/chunk-ABC123.js`). Builds the server's render
 * of sign-in and sign-up beside it ({@link hostedServerRenderOptions}).
 *
 * @returns the sizes in bytes: `initial` (entry and preloaded chunks, raw and gzipped) and `total`.
 */
export async function buildHostedPages(rootDir = root) {
  const outdir = join(rootDir, HOSTED_DIR);
  rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const [{ metafile }] = await Promise.all([build(hostedBuildOptions(rootDir)), build(hostedServerRenderOptions(rootDir))]);
  const rel = (output) => relative(HOSTED_DIR, output).split('\\').join('/');
  const entry = `${HOSTED_DIR}/handler.js`;
  const preload = [];
  const visit = (output) => {
    for (const dep of metafile.outputs[output].imports) {
      if (dep.kind !== 'import-statement' || preload.includes(rel(dep.path))) continue;
      preload.push(rel(dep.path));
      visit(dep.path);
    }
  };
  visit(entry);
  const chunks = Object.keys(metafile.outputs)
    .filter((o) => o !== entry && o.endsWith('.js'))
    .map(rel);
  writeFileSync(join(outdir, 'handler.json'), `${JSON.stringify({ preload, chunks }, null, 2)}\n`);
  const sizes = (files) => {
    const bodies = files.map((f) => readFileSync(join(outdir, f)));
    return { bytes: bodies.reduce((n, b) => n + b.length, 0), gzipped: bodies.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0) };
  };
  return { initial: sizes(['handler.js', ...preload]), total: sizes(['handler.js', ...chunks]), chunks: chunks.length };
}

/** The bundles this script writes. */
const OUTPUTS = ['dist/ui/handler/handler.js', HOSTED_SSR_FILE, 'dist/ui/dashboard/dashboard-assets/dashboard.js'];
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
  const hosted = await buildHostedPages();
  console.error(
    `built dist/ui/handler/: sign-in loads ${hosted.initial.bytes} bytes (${hosted.initial.gzipped} gzipped: handler.js and the chunks it imports); ` +
      `${hosted.total.bytes} bytes (${hosted.total.gzipped} gzipped) in handler.js and ${hosted.chunks} chunks`,
  );
  // The developer dashboard (ui/dashboard/build.mjs, owned by the dashboard): dist/ui/dashboard/.
  const dashboard = await (await import('../ui/dashboard/build.mjs')).buildDashboard(root);
  console.error(`built dist/ui/dashboard/dashboard-assets/dashboard.js: ${dashboard.bytes} bytes, ${dashboard.gzipped} bytes gzipped`);
}
