import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, it } from 'node:test';

/**
 * Core tests make no HTTP request ("Core tests without HTTP"): a test under core/
 * calls operations in-process (test/helpers/core-client.ts); the wire rendering of answers is
 * the host's to test (server-bin/, test/). Read from the source: a core test file, and every
 * test helper it reaches through relative imports, may not
 * - import the HTTP test server (test/helpers/server.ts), the HTTP client helper
 *   (test/helpers/api.ts), `describeWithServer` (test/helpers/suite.ts) or the host (server-bin/);
 * - call `fetch(` or node:http(s)' `request`/`get` itself.
 * A local `createServer` stays allowed: it stands in for a remote service core calls out to
 * (an SMTP relay, a webhook receiver, a model endpoint), which is core's own outbound traffic.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Core test files that still make HTTP requests, each with the reason. Shrinks to empty: a file
 * is converted to the in-process harness, or, where what it tests is the protocol itself
 * (browser redirects through a provider, 429 headers across processes, server-sent events), it
 * moves to the host's tests under test/.
 */
const ALLOWED: Record<string, string> = {
  'core/payments/stripe.test.ts': 'conversion pending',
};

/** Imports that bring the HTTP server or client in, as repo paths. */
const FORBIDDEN_MODULES = ['test/helpers/server.ts', 'test/helpers/api.ts'];

/** What a file may not do itself, with what to say. */
const FORBIDDEN_CODE: Array<[RegExp, string]> = [
  [/(?<![\w.])fetch\(/, 'calls fetch('],
  [/\bhttps?\.(?:request|get)\(/, 'calls node:http(s) request/get'],
  [/import\s*\{[^}]*\b(?:request|get)\b[^}]*\}\s*from\s*'node:https?'/, 'imports request/get from node:http(s)'],
  [/\bdescribeWithServer\b/, 'uses describeWithServer (test/helpers/suite.ts starts an HTTP server)'],
];

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (/\.test\.tsx?$/.test(entry.name)) out.push(relative(ROOT, path));
  }
  return out;
}

/** Relative import specifiers of `text` (value and type imports, re-exports, dynamic imports), as repo paths. */
function relativeImports(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((s) => normalize(join(dirname(file), s)));
}

/** Every problem of `file` and the test helpers it reaches, as `path: problem` lines. */
function problemsOf(file: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = (path: string, via: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(join(ROOT, path), 'utf8');
    for (const [pattern, what] of FORBIDDEN_CODE) if (pattern.test(text)) problems.push(`${path}${via}: ${what}`);
    for (const target of relativeImports(path, text)) {
      if (FORBIDDEN_MODULES.includes(target)) problems.push(`${path}${via}: imports ${target}`);
      else if (target.startsWith('server-bin/')) problems.push(`${path}${via}: imports the host (${target})`);
      else if (target.startsWith('test/helpers/') && existsSync(join(ROOT, target))) visit(target, ` (reached from ${file})`);
    }
  };
  visit(file, '');
  return problems;
}

describe('core tests make no HTTP request', () => {
  const files = walk(join(ROOT, 'core')).sort();

  it('finds the core test files', () => {
    assert.ok(files.length > 50, `only ${files.length} core test files found`);
  });

  it('no core test file (nor a helper it imports) starts the HTTP server or sends a request, outside the allow-list', () => {
    const problems = files.filter((f) => !(f in ALLOWED)).flatMap(problemsOf);
    assert.deepEqual(
      problems,
      [],
      `core tests call operations in-process (test/helpers/core-client.ts); move wire checks to a host test:\n${problems.join('\n')}`,
    );
  });

  it('the allow-list names only files that exist and still need it', () => {
    const stale = Object.keys(ALLOWED).filter((f) => !files.includes(f) || problemsOf(f).length === 0);
    assert.deepEqual(stale, [], 'remove these entries from ALLOWED: they no longer make HTTP requests');
  });

  it('the check sees a request: a helper reached through imports that calls fetch( is reported', () => {
    // The problems of a file known to make requests today, or of the HTTP client helper itself.
    const sample = Object.keys(ALLOWED)[0] ?? 'test/helpers/api.ts';
    assert.notDeepEqual(problemsOf(sample), []);
    assert.ok(problemsOf('test/helpers/api.ts').some((p) => p.includes('fetch(')));
  });
});
