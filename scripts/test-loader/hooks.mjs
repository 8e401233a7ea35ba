// Module customization hooks for the test runner (scripts/test.mjs): TypeScript and TSX
// compiled by esbuild, each result cached on disk by content hash so a test process pays
// only a file read per module. Imports in this repository name their `.ts`/`.tsx` files,
// so Node's own resolver finds them. In a shared test process (scripts/test-runner/worker.mjs)
// `node:test` imported by the repository's own files resolves to scripts/test-runner/node-test.mjs,
// which scopes each test file's top-level declarations to a suite of its own.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

// As tsconfig.json compiles: ES2022 class fields, imports kept as written (verbatimModuleSyntax).
const OPTIONS = {
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  sourcemap: 'inline',
  sourcesContent: false,
  tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: true, jsx: 'react-jsx' } },
};
const OPTIONS_KEY = JSON.stringify(OPTIONS);
let cacheDir;
/** @type {string | undefined} */
let nodeTestShim;

/** @param {{ cacheDir: string, nodeTestShim?: string }} data */
export function initialize(data) {
  cacheDir = data.cacheDir;
  nodeTestShim = data.nodeTestShim;
  mkdirSync(cacheDir, { recursive: true });
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
  const filename = fileURLToPath(url);
  const source = readFileSync(filename, 'utf8');
  const key = createHash('sha1').update(OPTIONS_KEY).update('\0').update(filename).update('\0').update(source).digest('hex');
  const cached = join(cacheDir, `${key}.js`);
  let code;
  try {
    code = readFileSync(cached, 'utf8');
  } catch {
    code = transformSync(source, { ...OPTIONS, loader: match[1] === 'tsx' ? 'tsx' : 'ts', sourcefile: filename }).code;
    const temporary = `${cached}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, cached);
  }
  return { format: 'module', source: code, shortCircuit: true };
}
