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
const CORE_LAYERS = new Set(['errors', 'storage', 'lib', 'operations', 'config', 'auth', 'tokens', 'protocol']);

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
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'generated-fixtures') out.push(...walk(path));
    } else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name)) out.push(path);
  }
  return out;
}

const isTest = (path: string) => path.startsWith('test/') || /\.test\.tsx?$/.test(path);

/** The import and re-export statements of a file: target (repo path or package) and whether only types. */
function importsOf(path: string, text: string): Array<{ target: string; typeOnly: boolean }> {
  const resolve = (spec: string) => (spec.startsWith('.') ? normalize(join(dirname(path), spec)) : spec);
  const out: Array<{ target: string; typeOnly: boolean }> = [];
  // `import … from`, `export … from` (not `export const x = '…'`), and side-effect `import '…'`.
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s)?[^;'"]*?\sfrom\s*['"]([^'"]+)['"]/gm)) {
    out.push({ target: resolve(m[3]!), typeOnly: m[2] !== undefined });
  }
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) out.push({ target: resolve(m[1]!), typeOnly: false });
  // `import('…')` in code loads a module; in a type position it is erased (approximation: both count).
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ target: resolve(m[1]!), typeOnly: false });
  // A module augmentation (`declare module './runtime.ts' { … }`) depends on the module it augments.
  for (const m of text.matchAll(/^\s*declare\s+module\s+['"](\.[^'"]+)['"]/gm)) out.push({ target: resolve(m[1]!), typeOnly: true });
  return out;
}

const files: SourceFile[] = TOP.flatMap((top) => walk(top)).map((path) => {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const imports = importsOf(path, text);
  return { path, text, imports: imports.map((i) => i.target), valueImports: imports.filter((i) => !i.typeOnly).map((i) => i.target) };
});
const coreFiles = files.filter((f) => f.path.startsWith('core/') && !isTest(f.path));

/**
 * The kernel: what runs operations and resolves callers, whatever the domains. It names no domain
 * (not even in a type import); domains implement or register its interfaces (core/auth/directory.ts,
 * `RuntimeServices` in core/runtime.ts, `AuthSubjectTypes` in core/auth/subjects.ts) and the
 * composition roots wire them. Beyond the runtime, operations/, config/, auth/, storage/, lib/ and
 * errors/: tokens/ (the runtime holds the key ring; JWT signing names no domain), protocol/ (pure
 * data shared by host and SDK) and validation.ts (pure data shared with the UI).
 */
const KERNEL = [
  'core/runtime.ts',
  'core/operations/',
  'core/config/',
  'core/auth/',
  'core/storage/',
  'core/lib/',
  'core/errors/',
  'core/tokens/',
  'core/protocol/',
  'core/validation.ts',
];

/**
 * The composition roots, which name every domain by design: createCore (core/index.ts), the
 * runtime wiring (core/wiring.ts), the cross-domain listeners (core/hooks.ts) and the list of
 * every operation (core/operations/registry.ts: in operations/ for its many importers, but a
 * composition root, not kernel).
 */
const COMPOSITION_ROOTS = new Set(['core/index.ts', 'core/wiring.ts', 'core/hooks.ts', 'core/operations/registry.ts']);

const isKernel = (path: string) => !COMPOSITION_ROOTS.has(path) && KERNEL.some((k) => (k.endsWith('/') ? path.startsWith(k) : path === k));
/** A core file of a domain: neither kernel nor composition root. */
const isDomain = (path: string) => path.startsWith('core/') && !isKernel(path) && !COMPOSITION_ROOTS.has(path);

/** Pure-data modules of core that the UI, the SDK and the host may import. */
const PUBLIC_CORE = new Set([
  'core/errors/catalogue.ts',
  'core/validation.ts',
  'core/webhook-events/types.ts',
  'core/protocol/cookie-bridge.ts',
]);

/**
 * Kernel modules the host imports besides core/index.ts, each for a reason: rendering operations
 * at the API entry (server-bin/api/), and the `gatehouse config` command, which checks and
 * plans config files offline. Nothing of a domain is here.
 */
const HOST_KERNEL_IMPORTS = new Set([
  'core/operations/define.ts',
  'core/operations/execute.ts',
  'core/runtime.ts',
  'core/lib/json-text.ts',
  'core/config/file-sync.ts',
  'core/config/format.ts',
]);

/** The domain folder of a core path (`core/users/x.ts` → `users`), or null for a shared layer or a top file. */
function domainOf(path: string): string | null {
  const parts = path.split('/');
  if (parts[0] !== 'core' || parts.length < 3 || CORE_LAYERS.has(parts[1]!)) return null;
  return parts[1]!;
}

describe('architecture boundaries', () => {
  it('keeps core free of the host, the UI, the SDK, tests and the HTTP server framework', () => {
    // Outbound clients (webhook delivery over node:http) are fine; serving HTTP is the host's job.
    const bad = coreFiles.flatMap((f) =>
      f.imports
        .filter((i) => /^(server-bin|ui|sdk|test|scripts|adapters)\//.test(i) || /^(koa|@koa\/)/.test(i))
        .map((i) => `${f.path} → ${i}`),
    );
    assert.deepEqual(bad, []);
  });

  it('keeps process.env out of core (the host reads its environment and passes options)', () => {
    assert.deepEqual(
      coreFiles.filter((f) => /\bprocess\.env\b/.test(f.text)).map((f) => f.path),
      [],
    );
  });

  it("lets the UI and the SDK use only core's public modules at run time (error catalogue, validation rules, webhook event types, protocol constants)", () => {
    // Pure data modules that import nothing: the error catalogue, the validation rules, the
    // webhook event types (the dashboard lists them).
    const bad = files
      .filter((f) => /^(ui|sdk)\//.test(f.path) && !isTest(f.path))
      .flatMap((f) => f.valueImports.filter((i) => i.startsWith('core/') && !PUBLIC_CORE.has(i)).map((i) => `${f.path} → ${i}`));
    assert.deepEqual(bad, []);
  });

  it('keeps the kernel free of every domain, type-only imports included', () => {
    const kernel = coreFiles.filter((f) => isKernel(f.path));
    assert.ok(
      kernel.some((f) => f.path === 'core/runtime.ts') && kernel.some((f) => f.path === 'core/auth/request-auth.ts'),
      'the kernel set matches files',
    );
    const bad = kernel.flatMap((f) => f.imports.filter(isDomain).map((i) => `${f.path} → ${i}`));
    assert.deepEqual(bad, []);
  });

  it('lets the host reach core only through its public face: no domain module, and kernel modules only as listed', () => {
    const host = files.filter((f) => f.path.startsWith('server-bin/') && !isTest(f.path));
    const bad = host.flatMap((f) =>
      f.imports
        .filter((i) => i.startsWith('core/') && i !== 'core/index.ts' && !PUBLIC_CORE.has(i) && !HOST_KERNEL_IMPORTS.has(i))
        .map((i) => `${f.path} → ${i}`),
    );
    assert.deepEqual(bad, []);
  });

  it('lets the host use the SDK only through its public entry (shared protocol constants live in core/protocol/)', () => {
    const bad = files
      .filter((f) => f.path.startsWith('server-bin/') && !isTest(f.path))
      .flatMap((f) => f.imports.filter((i) => i.startsWith('sdk/') && i !== 'sdk/index.ts').map((i) => `${f.path} → ${i}`));
    assert.deepEqual(bad, []);
  });

  it('keeps the SDK free of the UI and the host, type-only imports and tests included', () => {
    const bad = files
      .filter((f) => f.path.startsWith('sdk/'))
      .flatMap((f) => f.imports.filter((i) => /^(ui|server-bin)\//.test(i)).map((i) => `${f.path} → ${i}`));
    assert.deepEqual(bad, []);
  });

  it('keeps core/protocol/ pure data that core itself does not use (transport stays out of core)', () => {
    const protocol = coreFiles.filter((f) => f.path.startsWith('core/protocol/'));
    assert.ok(protocol.length > 0);
    assert.deepEqual(
      protocol.flatMap((f) => f.imports.map((i) => `${f.path} → ${i}`)),
      [],
    );
    assert.deepEqual(
      coreFiles.flatMap((f) => f.imports.filter((i) => i.startsWith('core/protocol/')).map((i) => `${f.path} → ${i}`)),
      [],
    );
  });

  it('imports test helpers only from tests', () => {
    const bad = files
      .filter((f) => !isTest(f.path) && !f.path.startsWith('scripts/'))
      .flatMap((f) => f.imports.filter((i) => i.startsWith('test/') || /\.test\.tsx?$/.test(i)).map((i) => `${f.path} → ${i}`));
    assert.deepEqual(bad, []);
  });

  it('lets a core domain use another domain only through its index.ts', () => {
    const found = coreFiles.flatMap((f) => {
      const from = domainOf(f.path);
      if (from === null) return [];
      return f.imports
        .filter((i) => {
          const to = domainOf(i);
          return to !== null && to !== from && !i.endsWith(`core/${to}/index.ts`);
        })
        .map((i) => `${f.path} → ${i}`);
    });
    assert.deepEqual(found, []);
  });

  it('reads no protocol header names in core', () => {
    // Not the served protocol: the error catalogue's messages are upstream's text, which names
    // headers; the webhook client sets the headers of requests Gatehouse itself sends; SAML
    // metadata names its endpoints in an XML attribute called `Location`.
    const exempt = new Set(['core/errors/catalogue.ts', 'core/webhooks/deliver.ts', 'core/sso/idp-metadata.ts']);
    const found = coreFiles
      .filter((f) => !exempt.has(f.path) && /['"`](x-stack-|x-hexclave-|cache-control|content-type|location)/i.test(f.text))
      .map((f) => f.path);
    assert.deepEqual(found, []);
  });

  it('builds no HTTP status codes in core outside the error catalogue', () => {
    const found = coreFiles
      .filter((f) => f.path !== 'core/errors/catalogue.ts' && /new StatusError\(\s*\d|\bstatus:\s*\d{3}\b/.test(f.text))
      .map((f) => f.path);
    assert.deepEqual(found, []);
  });
});

/**
 * One shortest cycle through `start` inside `component` (breadth-first), as `a → b → … → a`: what
 * a failure shows, so the import to cut is visible without rebuilding the graph by hand.
 */
function cyclePath(graph: Map<string, string[]>, component: string[]): string {
  const inside = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start].join(' → ');
      }
      if (!previous.has(w) && w !== start) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return component.join(', ');
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import cycles', () => {
  it('has no cycle between source files, type-only imports counted', () => {
    // A type-only cycle costs nothing at run time, but it ties the files' meaning together: the
    // kernel would not typecheck without the domains that named it (123 files in one circle).
    const graph = new Map(files.filter((f) => !isTest(f.path)).map((f) => [f.path, f.imports] as const));
    const found = cycles(graph);
    assert.deepEqual(
      found.map((c) => `${c.length} files, e.g. ${cyclePath(graph, c)}`),
      [],
    );
  });

  it('has no cycle in core/, type-only imports counted', () => {
    const graph = new Map(coreFiles.map((f) => [f.path, f.imports] as const));
    assert.ok(graph.size > 300, `core has ${graph.size} files`);
    assert.deepEqual(
      cycles(graph).map((c) => `${c.length} files, e.g. ${cyclePath(graph, c)}`),
      [],
    );
  });

  it('has no cycle in the module graph esbuild resolves from every entry point', async () => {
    const entryPoints = [
      'core/index.ts',
      'server-bin/cli.ts',
      'server-bin/index.ts',
      'sdk/index.ts',
      'sdk/index.browser.ts',
      'ui/react.ts',
    ];
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outdir: 'out',
      logLevel: 'silent',
      loader: { '.css': 'empty' },
    });
    const graph = new Map(
      Object.entries(result.metafile.inputs).map(([file, input]) => [file, input.imports.filter((i) => !i.external).map((i) => i.path)]),
    );
    assert.ok(graph.has('core/index.ts') && graph.size > 100, `esbuild saw ${graph.size} files`);
    assert.deepEqual(cycles(graph), []);
  });
});
