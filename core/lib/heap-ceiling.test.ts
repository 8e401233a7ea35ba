import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { describe, it } from 'node:test';
import { HeapCeiling } from './heap-ceiling.ts';

/** Garbage of about `mb` MiB that survives until the caller drops it: small objects, as an import's records. */
function garbage(mb: number): object[] {
  const out: object[] = [];
  for (let i = 0; i < mb * 8_000; i++) out.push({ line: i, text: `record ${i} ${'x'.repeat(64)}` });
  return out;
}

describe('heap ceiling (issue 30)', () => {
  it('leaves the heap alone below the ceiling', () => {
    const ceiling = new HeapCeiling(512 * 2 ** 20);
    assert.equal(ceiling.check(), false);
  });

  it('collects once the heap in use passes the ceiling, and the garbage is gone afterwards', () => {
    const ceiling = new HeapCeiling(8 * 2 ** 20);
    let held: object[] | null = garbage(32);
    const grown = v8.getHeapStatistics().used_heap_size;
    held = null;
    assert.equal(held, null);
    assert.equal(ceiling.check(), true);
    assert.ok(v8.getHeapStatistics().used_heap_size < grown - 16 * 2 ** 20, 'the dropped records were collected');
    assert.equal((globalThis as { gc?: unknown }).gc, undefined, 'the global gets no gc function');
  });

  it('raises itself above data that survives, so it does not collect again at once', () => {
    const ceiling = new HeapCeiling(4 * 2 ** 20);
    const kept = garbage(16);
    assert.equal(ceiling.check(), true);
    assert.equal(ceiling.check(), false, 'the survivors plus the budget are the new ceiling');
    assert.ok(kept.length > 0);
  });
});
