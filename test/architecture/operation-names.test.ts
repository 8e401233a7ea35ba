import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { operations } from '../../core/operations/registry.ts';

/**
 * One name per operation (operations are defined once): for every operation in the
 * registry, the export that holds it, the file that exports it and its id agree.
 * - file: the kebab-case of the export name (`createUser` in `create-user.ts`);
 * - id: `<domain>.<action>`, every word of the action in the export name (`users.create`,
 *   `users.getCurrent` ↔ `getCurrentUser`).
 * Operations made by a shared factory (one file, several scopes) are exported by the file that
 * applies the factory; the rule applies to that export.
 * KNOWN_MISMATCHES lists today's exceptions: renaming them touches ids that
 * docs/openapi.json and sdk/generated carry. The list may only shrink: a fixed entry left in it
 * fails too.
 */

const ROOT = join(import.meta.dirname, '..', '..');

const KNOWN_MISMATCHES: ReadonlySet<string> = new Set([
  // '<id> <export name> <file>'
]);

const words = (camel: string) =>
  camel
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ');
const kebab = (camel: string) => words(camel).join('-');

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('-worker.ts')) out.push(path);
  }
  return out;
}

/** Operation → where it is exported: `[file, export name]`, barrels (index.ts, operations.ts) last. */
async function exportsOfOperations(): Promise<Map<object, Array<[string, string]>>> {
  const registered = new Set<object>(operations);
  const found = new Map<object, Array<[string, string]>>();
  for (const file of walk(join(ROOT, 'core'))) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'object' || value === null || !registered.has(value)) continue;
      if (!found.has(value)) found.set(value, []);
      found.get(value)!.push([relative(ROOT, file), name]);
    }
  }
  return found;
}

const isBarrel = (file: string) => /\/(index|operations)\.ts$/.test(file);

describe('Operation names', () => {
  it("names every operation once: file = kebab(export name), id = <domain>.<action> with the action's words in the export name", async () => {
    const found = await exportsOfOperations();
    const mismatches: string[] = [];
    for (const op of operations) {
      const homes = found.get(op) ?? [];
      assert.ok(homes.length > 0, `${op.id} is exported by no core file`);
      // The defining export: a non-barrel file when there is one (a factory's application may live in a barrel).
      const [file, name] = homes.find(([f]) => !isBarrel(f)) ?? homes[0]!;
      const action = op.id.split('.').slice(1).join('.');
      const fileOk = isBarrel(file) || basename(file, '.ts') === kebab(name);
      const nameWords = new Set(words(name));
      const idOk = /^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/.test(op.id) && words(action).every((w) => nameWords.has(w));
      if (!fileOk || !idOk) mismatches.push(`${op.id} ${name} ${file}`);
    }
    const unexpected = mismatches.filter((m) => !KNOWN_MISMATCHES.has(m));
    const fixed = [...KNOWN_MISMATCHES].filter((m) => !mismatches.includes(m));
    assert.deepEqual(
      { unexpected, fixed },
      { unexpected: [], fixed: [] },
      `${mismatches.length} of ${operations.length} operations disagree`,
    );
  });
});
