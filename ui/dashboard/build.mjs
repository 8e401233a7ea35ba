// Builds the developer dashboard (ui/dashboard/main.tsx) into
// dist/ui/dashboard/dashboard-assets/dashboard.js, served at /dashboard-assets/dashboard.js
// (scripts/build-binary.mjs embeds dist/ui/dashboard at `/`). esbuild, React aliased to
// preact/compat (uPlot's layout rules are in ui/dashboard/styles.ts), minified, ES2020. Run by scripts/build-ui.mjs
// (`npm run build:ui`, `prestart`, `pretest`) or directly; server-bin/dashboard.ts builds in memory
// when the file is missing.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Output file of the dashboard bundle, relative to the repository. */
export const DASHBOARD_BUNDLE = 'dist/ui/dashboard/dashboard-assets/dashboard.js';

/** esbuild options of the dashboard bundle (also used for the in-memory fallback). */
export function dashboardBuildOptions(rootDir = root) {
  return {
    entryPoints: [join(rootDir, 'ui/dashboard/main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat', 'react/jsx-runtime': 'preact/jsx-runtime' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/** Builds the bundle to DASHBOARD_BUNDLE; returns its size in bytes and gzipped. */
export async function buildDashboard(rootDir = root) {
  const out = join(rootDir, DASHBOARD_BUNDLE);
  mkdirSync(dirname(out), { recursive: true });
  await build({ ...dashboardBuildOptions(rootDir), outfile: out });
  return { bytes: statSync(out).size, gzipped: gzipSync(readFileSync(out), { level: 9 }).length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { bytes, gzipped } = await buildDashboard();
  console.error(`built ${DASHBOARD_BUNDLE}: ${bytes} bytes, ${gzipped} bytes gzipped`);
}
