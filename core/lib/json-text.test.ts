import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyIteratively, stringifyJson } from './json-text.ts';

describe('stringifyJson', () => {
  it('writes exactly what JSON.stringify writes for JSON data, through the iterative path too', () => {
    const samples: unknown[] = [
      { a: [1, 'x', null, undefined, () => 1, { b: true }], c: undefined, d: new Date(0), e: -0, f: Number.NaN, 'k"\u0001': '\u2028\ud83d\ude00', g: { toJSON: () => 'custom' } },
      [], {}, 'text', 5.25, null, true, [[[{}]]], Object.create(null),
    ];
    for (const sample of samples) {
      assert.equal(stringifyIteratively(sample), JSON.stringify(sample));
      assert.equal(stringifyJson(sample), JSON.stringify(sample));
    }
  });

  it('serializes a value nested deeper than JSON.stringify can (rows stored before depth was bounded)', () => {
    const depth = 200_000;
    const text = '{"a":'.repeat(depth) + '[1]' + '}'.repeat(depth);
    const value = JSON.parse(text);
    assert.throws(() => JSON.stringify(value), RangeError);
    assert.equal(stringifyJson(value), text);
  });
});
