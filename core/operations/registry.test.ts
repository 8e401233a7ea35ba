import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { operations } from './registry.ts';
import { errorCatalogue } from '../errors/catalogue.ts';
import { ACCESS_TYPES } from './define.ts';

/**
 * Operations that do not declare their output yet. Shrinks only: whoever adds
 * an operation's `output` deletes its id here (branches `outputs` and `openapi`); the meta routes
 * (JWKS, API root) leave with their move to the host.
 */
const OUTPUT_PENDING = new Set<string>([]);

describe('operation registry', () => {
  it('has no two operations with the same id', () => {
    const seen = new Set<string>();
    for (const op of operations) {
      assert.ok(!seen.has(op.id), `duplicate operation id ${op.id}`);
      seen.add(op.id);
    }
  });

  it('has no two operations on the same method and path', () => {
    const seen = new Map<string, string>();
    for (const op of operations) {
      // Parameter names do not matter for routing: /teams/:a and /teams/:b collide.
      const key = `${op.method} ${op.path.replace(/:[a-z_]+/gi, ':')}`;
      assert.ok(!seen.has(key), `${op.id} and ${seen.get(key)} both route ${key}`);
      seen.set(key, op.id);
    }
  });

  it('declares only errors that exist in the catalogue', () => {
    for (const op of operations) {
      for (const code of op.errors) assert.ok(code in errorCatalogue, `${op.id} declares unknown error ${code}`);
      assert.equal(new Set(op.errors).size, op.errors.length, `${op.id} declares an error twice`);
    }
  });

  it('gives every operation a summary, a path under the API and valid access levels', () => {
    for (const op of operations) {
      assert.ok(op.summary.length > 5, `${op.id} has no summary`);
      assert.match(op.path, /^\//, `${op.id} path must start with /`);
      assert.match(op.id, /^[a-zA-Z]+\.[a-zA-Z]+$/, `${op.id} must be domain.verb`);
      if (op.access !== 'public') {
        assert.ok(op.access.length > 0, `${op.id} allows no access level`);
        for (const a of op.access) assert.ok(ACCESS_TYPES.includes(a), `${op.id} has bad access ${a}`);
      }
    }
  });

  it("declares every operation's success output (the pending list only shrinks)", () => {
    const ids = new Set(operations.map((op) => op.id));
    const missing = operations.filter((op) => !op.output && !OUTPUT_PENDING.has(op.id)).map((op) => op.id);
    assert.deepEqual(missing, [], 'operations without an output schema');
    const stale = [...OUTPUT_PENDING].filter((id) => !ids.has(id) || operations.find((op) => op.id === id)!.output);
    assert.deepEqual(stale, [], 'OUTPUT_PENDING names operations that are gone or now declare their output: delete them from it');
  });

  it('has a catalogue whose codes are declared once each and whose statuses are HTTP errors', () => {
    // An object literal keeps the last of two same-named keys silently at run time, so read the
    // source: every `CODE: entry(` line must name a different code.
    const source = readFileSync(new URL('../errors/catalogue.ts', import.meta.url), 'utf8');
    const declared = [...source.matchAll(/^\s+([A-Z0-9_]+): entry\(/gm)].map((m) => m[1]!);
    const repeated = declared.filter((code, i) => declared.indexOf(code) !== i);
    assert.deepEqual(repeated, [], 'codes declared twice');
    assert.deepEqual([...declared].sort(), Object.keys(errorCatalogue).sort(), 'every catalogue entry is declared as `CODE: entry(`');
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      assert.match(code, /^[A-Z0-9_]+$/);
      assert.ok(entry.status >= 400 && entry.status < 600, `${code} has status ${entry.status}`);
      assert.equal(typeof entry.message({}), 'string');
    }
  });
});
