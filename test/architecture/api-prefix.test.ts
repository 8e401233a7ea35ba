import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { it } from 'node:test';

/**
 * core/ types `/api/v1` once (core/operations/api-path.ts API_PREFIX): links, redirects and
 * error messages derive from it. Comments may name the prefix.
 */
const ROOT = join(import.meta.dirname, '..', '..');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

it('has /api/v1 in core code only in core/operations/api-path.ts', () => {
  const found: string[] = [];
  for (const file of walk(join(ROOT, 'core'))) {
    const path = relative(ROOT, file);
    if (path === 'core/operations/api-path.ts') continue;
    // Comments out: block comments, then line comments (a `//` after a quote is part of a URL).
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
      .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    code.split('\n').forEach((line, i) => {
      if (line.includes('/api/v1')) found.push(`${path}:${i + 1}`);
    });
  }
  assert.deepEqual(found, []);
});
