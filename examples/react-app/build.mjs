#!/usr/bin/env node
// Builds the example app with real React (not preact): `node examples/react-app/build.mjs [outdir]`
// (`npm run example` builds and serves it, see serve.mjs and README.md).
// `gatehouse-sdk` and `gatehouse-react` are aliased to this repository's sources (a published
// package resolves them through its exports map). Also exported as functions for the tests.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');

/** Builds the bundle; returns its JavaScript (written to `outdir/example.js` when given). */
export async function buildExample(outdir) {
  const result = await build({
    entryPoints: [join(here, 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    external: ['node:*'],
    jsx: 'automatic',
    alias: { 'gatehouse-sdk': join(root, 'sdk/index.browser.ts'), 'gatehouse-react': join(root, 'ui/react.ts') },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    write: Boolean(outdir),
    ...(outdir ? { outfile: join(outdir, 'example.js') } : {}),
  });
  return outdir ? null : result.outputFiles[0].text;
}

/** The page that loads it: index.html with the app's configuration filled in. */
export function exampleHtml(config) {
  const template = readFileSync(join(here, 'index.html'), 'utf8');
  return template.replace('/*CONFIG*/{}', () => JSON.stringify(config).replace(/</g, '\\u003c'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildExample(process.argv[2] ?? join(root, 'dist/example'));
  console.error('built the example app');
}
