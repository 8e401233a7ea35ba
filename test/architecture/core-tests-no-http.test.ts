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

  // There is no allow-list: a core test that needs HTTP tests the host, and lives under test/
  // (e.g. test/routes/user-import-stream.test.ts, test/payments/stripe.test.ts).
  it('no core test file (nor a helper it imports) starts the HTTP server or sends a request', () => {
    const problems = files.flatMap(problemsOf);
    assert.deepEqual(
      problems,
      [],
      `core tests call operations in-process (test/helpers/core-client.ts); move wire checks to a host test:\n${problems.join('\n')}`,
    );
  });

  it('the check sees a request: a helper reached through imports that calls fetch( is reported', () => {
    // A host test that makes requests through the helpers (as a core test doing so would), and the
    // HTTP client helper itself.
    assert.ok(problemsOf('test/routes/user-import-stream.test.ts').some((p) => p.includes('imports test/helpers/api.ts')));
    assert.ok(problemsOf('test/helpers/api.ts').some((p) => p.includes('fetch(')));
  });
});
