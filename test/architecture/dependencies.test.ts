import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { build } from 'esbuild';

/**
 * The server package's declared dependencies match what its published code imports at run time.
 * "Published code" is what esbuild reaches from the package's `exports` and `bin` (their sources:
 * `dist/lib/X.js` is built from `X.ts`), plus every non-test file of core/, adapters/ and
 * server-bin/ (all compiled into dist/lib; worker entries are loaded by URL, not imported). Every
 * package it imports must be a dependency (or, for the React bindings, a peer dependency); every
 * dependency must be imported by it. Build tools and the browser bundles' libraries (esbuild,
 * preact, uplot…) are devDependencies: the UI bundles are built before packing (`prepack`).
 */

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  exports: Record<string, { default: string }>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/**
 * Dev-only fallbacks that load a devDependency on purpose, by file and package: the bin runs the
 * TypeScript sources through tsx in a checkout that has not been built (bin/gatehouse.mjs).
 */
const DEV_FALLBACKS = new Set(['bin/gatehouse.mjs → tsx']);

/**
 * Dependencies no source file imports, and why they are dependencies: the published `.d.ts` files
 * name Koa's and Node's types, so a TypeScript consumer needs them.
 */
const TYPES_ONLY = new Set(['@types/koa', '@types/node']);

/**
 * Dependencies no source file imports because a dependency imports them as its peer:
 * `@react-email/render` renders with `react-dom/server` (core/emails/react-email-render.ts).
 */
const PEERS_OF_DEPENDENCIES = new Set(['react-dom']);

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`, `name/sub` → `name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

/** `dist/lib/core/index.js` → `core/index.ts` (or `.tsx`, whichever exists). */
function sourceOf(built: string): string {
  const base = built
    .replace(/^\.\//, '')
    .replace(/^dist\/lib\//, '')
    .replace(/\.js$/, '');
  for (const ext of ['.ts', '.tsx', '.mjs']) {
    try {
      readFileSync(join(ROOT, base + ext));
      return base + ext;
    } catch {
      /* next */
    }
  }
  throw new Error(`no source for ${built}`);
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...walk(path));
    else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Package → the published files that import it at run time (type-only imports are erased by esbuild). */
let scanned: Promise<Map<string, Set<string>>> | undefined;
const runtimeImports = () => (scanned ??= scan());

async function scan(): Promise<Map<string, Set<string>>> {
  const entryPoints = [
    ...Object.values(pkg.exports).map((e) => sourceOf(e.default)),
    ...Object.values(pkg.bin),
    ...['core', 'adapters', 'server-bin'].flatMap(walk),
  ];
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [...new Set(entryPoints)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: 'out',
    logLevel: 'silent',
    loader: { '.css': 'empty' },
    // bin/gatehouse.mjs imports the compiled server when it exists: its sources are entries already.
    external: ['../dist/*'],
  });
  const found = new Map<string, Set<string>>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const i of input.imports) {
      if (!i.external || i.path.startsWith('.') || isBuiltin(i.path)) continue;
      const name = packageName(i.path);
      if (!found.has(name)) found.set(name, new Set());
      found.get(name)!.add(file);
    }
  }
  return found;
}

describe('Declared dependencies', () => {
  it('declares every package the published code imports at run time as a dependency (not a devDependency)', async () => {
    const imports = await runtimeImports();
    assert.ok(imports.has('kysely') && imports.has('koa'), `the scan found ${[...imports.keys()].join(', ')}`);
    const undeclared: string[] = [];
    for (const [name, files] of imports) {
      const declared = name in pkg.dependencies || name in (pkg.peerDependencies ?? {});
      const fallbacksOnly = [...files].every((f) => DEV_FALLBACKS.has(`${f} → ${name}`));
      if (!declared && !fallbacksOnly)
        undeclared.push(`${name} (${[...files].slice(0, 3).join(', ')}${name in pkg.devDependencies ? '; a devDependency' : ''})`);
    }
    assert.deepEqual(undeclared, []);
  });

  it('has no dependency that the published code does not import (build-only packages are devDependencies)', async () => {
    const imports = await runtimeImports();
    const unused = Object.keys(pkg.dependencies).filter(
      (name) => !imports.has(name) && !TYPES_ONLY.has(name) && !PEERS_OF_DEPENDENCIES.has(name),
    );
    assert.deepEqual(unused, []);
  });

  it('declares each package once', () => {
    const twice = Object.keys(pkg.dependencies).filter((name) => name in pkg.devDependencies);
    assert.deepEqual(twice, []);
  });
});
