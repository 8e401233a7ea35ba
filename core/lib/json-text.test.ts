import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonTextError, jsonTextDepth, parseJsonText, stringifyIteratively, stringifyJson } from './json-text.ts';

describe('stringifyJson', () => {
  it('writes exactly what JSON.stringify writes for JSON data, through the iterative path too', () => {
    const samples: unknown[] = [
      {
        a: [1, 'x', null, undefined, () => 1, { b: true }],
        c: undefined,
        d: new Date(0),
        e: -0,
        f: Number.NaN,
        'k"\u0001': '\u2028\ud83d\ude00',
        g: { toJSON: () => 'custom' },
      },
      [],
      {},
      'text',
      5.25,
      null,
      true,
      [[[{}]]],
      Object.create(null),
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

describe('parseJsonText (issue 27 finding 8)', () => {
  it('counts nesting outside strings only, escaped quotes included', () => {
    assert.equal(jsonTextDepth('{"a": [1, {"b": "[[[{{{"}]}'), 3);
    assert.equal(jsonTextDepth('["\\"[[[", []]'), 2);
    assert.equal(jsonTextDepth('"plain"'), 0);
  });

  it('parses texts within the bound and refuses deeper or longer ones before building them', () => {
    const at = '['.repeat(64) + ']'.repeat(64);
    assert.deepEqual(JSON.stringify(parseJsonText(at)), at);
    const deep = '['.repeat(65) + ']'.repeat(65);
    assert.throws(
      () => parseJsonText(deep),
      (e: unknown) => e instanceof JsonTextError && e.reason === 'depth' && /at most 64 levels/.test(e.message),
    );
    assert.throws(
      () => parseJsonText('['.repeat(1_000_000)),
      (e: unknown) => e instanceof JsonTextError && e.reason === 'depth',
    );
    assert.throws(
      () => parseJsonText('"abc"', { maxLength: 4 }),
      (e: unknown) => e instanceof JsonTextError && e.reason === 'length',
    );
    assert.throws(
      () => parseJsonText('{"a":'),
      (e: unknown) => e instanceof JsonTextError && e.reason === 'syntax',
    );
  });
});
