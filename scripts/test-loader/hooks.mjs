// Module customization hooks for the test runner (scripts/test.mjs): TypeScript and TSX
// compiled by esbuild, each result cached on disk by content hash so a test process pays
// only a file read per module. Imports in this repository name their `.ts`/`.tsx` files,
// so Node's own resolver finds them. In a shared test process (scripts/test-runner/worker.mjs)
// `node:test` imported by the repository's own files resolves to scripts/test-runner/node-test.mjs,
// which scopes each test file's top-level declarations to a suite of its own.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, compileCached } from './compile.mjs';

/** @type {string | undefined} */
let nodeTestShim;

/** @param {{ nodeTestShim?: string }} data */
export function initialize(data) {
  nodeTestShim = data.nodeTestShim;
  mkdirSync(CACHE_DIR, { recursive: true });
}

export async function resolve(specifier, context, nextResolve) {
  if (
    nodeTestShim &&
    specifier === 'node:test' &&
    context.parentURL?.startsWith('file:') &&
    !context.parentURL.includes('/node_modules/') &&
    context.parentURL !== nodeTestShim
  ) {
    return { url: nodeTestShim, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  const match = /\.(tsx?|mts)$/.exec(url.startsWith('file:') ? url.split('?')[0] : '');
  if (!match || url.includes('/node_modules/')) return nextLoad(url, context);
  const code = compileCached(CACHE_DIR, fileURLToPath(url));
  return { format: 'module', source: code, shortCircuit: true };
}
