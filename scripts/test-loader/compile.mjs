// The test loader's compilation (scripts/test-loader/hooks.mjs) and its on-disk cache, shared with
// scripts/test.mjs, which fills the cache for every file before the test processes start.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform, transformSync } from 'esbuild';

/** Where compiled modules are kept between runs. */
export const CACHE_DIR = join(fileURLToPath(new URL('../..', import.meta.url)), 'node_modules', '.cache', 'gatehouse-test-loader');

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

/** The cache file of `filename` with contents `source`: named by their hash and the options'. */
export function cachedPath(cacheDir, filename, source) {
  const key = createHash('sha1').update(OPTIONS_KEY).update('\0').update(filename).update('\0').update(source).digest('hex');
  return join(cacheDir, `${key}.js`);
}

const optionsFor = (filename) => ({ ...OPTIONS, loader: filename.endsWith('.tsx') ? 'tsx' : 'ts', sourcefile: filename });

/** Writes `code` to `cached` atomically (another process may be writing the same file). */
function store(cached, code) {
  const temporary = `${cached}.${process.pid}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, cached);
}

/** The compiled module of a TypeScript file, from the cache or compiled now (and cached). */
export function compileCached(cacheDir, filename) {
  const source = readFileSync(filename, 'utf8');
  const cached = cachedPath(cacheDir, filename, source);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    const { code } = transformSync(source, optionsFor(filename));
    store(cached, code);
    return code;
  }
}

/**
 * Compiles into the cache every file of `filenames` not there yet, concurrently in esbuild's
 * service (test processes starting together would otherwise each compile the modules they share).
 * Answers how many were compiled; a file that does not compile is left to the test that loads it.
 */
export async function fillCache(cacheDir, filenames) {
  let compiled = 0;
  await Promise.all(
    filenames.map(async (filename) => {
      const source = readFileSync(filename, 'utf8');
      const cached = cachedPath(cacheDir, filename, source);
      if (existsSync(cached)) return;
      try {
        store(cached, (await transform(source, optionsFor(filename))).code);
        compiled++;
      } catch {}
    }),
  );
  return compiled;
}
