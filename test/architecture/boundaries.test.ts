import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';
import { build } from 'esbuild';

/**
 * Architecture rules read from the source (docs/architecture.md "Layers" and "Enforced by tests"):
 * what may import what, and what the transport-free core may not touch.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const TOP = ['core', 'adapters', 'server-bin', 'sdk', 'ui', 'scripts', 'test'] as const;

/**
 * Folders of core/ that are shared layers, not domains: any file of them may be imported, and
 * the inner-file rule applies to domains only (core/index.ts and the registry wire domains up).
 */
const CORE_LAYERS = new Set(['errors', 'storage', 'lib', 'operations', 'config', 'auth', 'tokens']);

interface SourceFile {
  path: string;
  text: string;
  /** Every import and re-export, type-only ones included, as repo paths (packages as named). */
  imports: string[];
  /** The imports that exist at run time (`import type` / `export type` are erased). */
  valueImports: string[];
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) { if (entry.name !== 'node_modules' && entry.name !== 'generated-fixtures') out.push(...walk(path)); }
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name)) out.push(path);
  }
  return out;
}

const isTest = (path: string) => path.startsWith('test/') || /\.test\.tsx?$/.test(path);

/** The import and re-export statements of a file: target (repo path or package) and whether only types. */
function importsOf(path: string, text: string): Array<{ target: string; typeOnly: boolean }> {
  const resolve = (spec: string) => spec.startsWith('.') ? normalize(join(dirname(path), spec)) : spec;
  const out: Array<{ target: string; typeOnly: boolean }> = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s)?[^;'"]*?(?:from\s*)?['"]([^'"]+)['"]/gm)) {
    out.push({ target: resolve(m[3]!), typeOnly: m[2] !== undefined });
  }
  // `import('…')` in code loads a module; in a type position it is erased (approximation: both count).
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ target: resolve(m[1]!), typeOnly: false });
  return out;
}

const files: SourceFile[] = TOP.flatMap((top) => walk(top)).map((path) => {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const imports = importsOf(path, text);
  return { path, text, imports: imports.map((i) => i.target), valueImports: imports.filter((i) => !i.typeOnly).map((i) => i.target) };
});
const coreFiles = files.filter((f) => f.path.startsWith('core/') && !isTest(f.path));

/** The domain folder of a core path (`core/users/x.ts` → `users`), or null for a shared layer or a top file. */
function domainOf(path: string): string | null {
  const parts = path.split('/');
  if (parts[0] !== 'core' || parts.length < 3 || CORE_LAYERS.has(parts[1]!)) return null;
  return parts[1]!;
}

describe('architecture boundaries', () => {
  it('keeps core free of the host, the UI, the SDK, tests and the HTTP server framework', () => {
    // Outbound clients (webhook delivery over node:http) are fine; serving HTTP is the host's job.
    const bad = coreFiles.flatMap((f) => f.imports
      .filter((i) => /^(server-bin|ui|sdk|test|scripts|adapters)\//.test(i) || /^(koa|@koa\/)/.test(i))
      .map((i) => `${f.path} → ${i}`));
    assert.deepEqual(bad, []);
  });

  it('keeps process.env out of core (the host reads its environment and passes options)', () => {
    assert.deepEqual(coreFiles.filter((f) => /\bprocess\.env\b/.test(f.text)).map((f) => f.path), []);
  });

  it('lets the UI and the SDK use only core\'s public modules at run time (error catalogue, validation rules, webhook event types)', () => {
    // Pure data modules that import nothing: the error catalogue, the validation rules, the
    // webhook event types (the dashboard lists them).
    const PUBLIC = new Set(['core/errors/catalogue.ts', 'core/validation.ts', 'core/webhook-events/types.ts']);
    const bad = files.filter((f) => /^(ui|sdk)\//.test(f.path) && !isTest(f.path))
      .flatMap((f) => f.valueImports.filter((i) => i.startsWith('core/') && !PUBLIC.has(i)).map((i) => `${f.path} → ${i}`));
    assert.deepEqual(bad, []);
  });

  it('imports test helpers only from tests', () => {
    const bad = files.filter((f) => !isTest(f.path) && !f.path.startsWith('scripts/'))
      .flatMap((f) => f.imports.filter((i) => i.startsWith('test/') || /\.test\.tsx?$/.test(i)).map((i) => `${f.path} → ${i}`));
    assert.deepEqual(bad, []);
  });

  it('lets a core domain use another domain only through its index.ts', () => {
    const found = coreFiles.flatMap((f) => {
      const from = domainOf(f.path);
      if (from === null) return [];
      return f.imports.filter((i) => {
        const to = domainOf(i);
        return to !== null && to !== from && !i.endsWith(`core/${to}/index.ts`);
      }).map((i) => `${f.path} → ${i}`);
    });
    assert.deepEqual(found, []);
  });

  it('reads no protocol header names in core', () => {
    // Not the served protocol: the error catalogue's messages are upstream's text, which names
    // headers; the webhook client sets the headers of requests Gatehouse itself sends.
    const exempt = new Set(['core/errors/catalogue.ts', 'core/webhooks/deliver.ts']);
    const found = coreFiles.filter((f) => !exempt.has(f.path) && /['"`](x-stack-|x-hexclave-|cache-control|content-type|location)/i.test(f.text)).map((f) => f.path);
    assert.deepEqual(found, []);
  });

  it('builds no HTTP status codes in core outside the error catalogue', () => {
    const found = coreFiles.filter((f) => f.path !== 'core/errors/catalogue.ts' && /new StatusError\(\s*\d|\bstatus:\s*\d{3}\b/.test(f.text)).map((f) => f.path);
    assert.deepEqual(found, []);
  });
});

/** Strongly connected components of more than one node (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import cycles', () => {
  it('has no cycle between source files (type-only imports aside: they are erased)', () => {
    const graph = new Map(files.filter((f) => !isTest(f.path)).map((f) => [f.path, f.valueImports] as const));
    assert.deepEqual(cycles(graph), []);
  });

  it('has no cycle in the module graph esbuild resolves from every entry point', async () => {
    const entryPoints = ['core/index.ts', 'server-bin/cli.ts', 'server-bin/index.ts', 'sdk/index.ts', 'sdk/index.browser.ts', 'ui/react.ts'];
    const result = await build({ absWorkingDir: ROOT, entryPoints, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', outdir: 'out', logLevel: 'silent', loader: { '.css': 'empty' } });
    const graph = new Map(Object.entries(result.metafile.inputs).map(([file, input]) => [file, input.imports.filter((i) => !i.external).map((i) => i.path)]));
    assert.ok(graph.has('core/index.ts') && graph.size > 100, `esbuild saw ${graph.size} files`);
    assert.deepEqual(cycles(graph), []);
  });
});
