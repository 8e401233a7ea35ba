import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { HtmlOutput, listOutput, outputProblem, pagedListOutput, RedirectOutput, SuccessOutput, TextOutput } from './output.ts';
import { KnownError } from '../errors/index.ts';

describe('output schemas', () => {
  const Item = v.strictObject({ id: v.string() });

  it('accepts an answer that matches and names every mismatch of one that does not', () => {
    assert.equal(outputProblem('x.list', listOutput(Item), { kind: 'json', value: { items: [{ id: 'a' }], is_paginated: false } }), null);
    const problem = outputProblem('x.list', listOutput(Item), {
      kind: 'json',
      value: { items: [{ id: 1 }, { id: 'b', extra: true }], is_paginated: false },
    });
    assert.ok(problem);
    assert.match(problem, /x\.list/);
    assert.match(problem, /items\.0\.id: Invalid type/);
    assert.match(problem, /items\.1\.extra/);
  });

  it('tells the paged and unpaged list envelopes apart', () => {
    const paged = pagedListOutput(Item);
    assert.equal(
      outputProblem('x', paged, { kind: 'json', value: { items: [], is_paginated: true, pagination: { next_cursor: null } } }),
      null,
    );
    assert.equal(outputProblem('x', paged, { kind: 'json', value: { items: [], is_paginated: false } }), null);
    assert.ok(outputProblem('x', paged, { kind: 'json', value: { items: [], is_paginated: true } }));
  });

  it('checks the kind of a raw answer: text, HTML, redirect or JSON', () => {
    assert.equal(outputProblem('x', TextOutput, { kind: 'text', value: 'hello' }), null);
    assert.equal(outputProblem('x', HtmlOutput, { kind: 'html', value: '<p>hi</p>' }), null);
    assert.ok(outputProblem('x', HtmlOutput, { kind: 'text', value: 'hello' }), 'a text/plain answer is not the declared page');
    assert.ok(outputProblem('x', TextOutput, { kind: 'html', value: '<p>hi</p>' }));
    assert.ok(outputProblem('x', TextOutput, { kind: 'redirect', value: '' }));
    assert.ok(outputProblem('x', SuccessOutput, { kind: 'text', value: 'hello' }));
    const either = v.union([v.strictObject({ location: v.string() }), RedirectOutput]);
    assert.equal(outputProblem('x', either, { kind: 'redirect', value: '' }), null);
    assert.equal(outputProblem('x', either, { kind: 'json', value: { location: '/' } }), null);
    assert.ok(outputProblem('x', SuccessOutput, { kind: 'json', value: { success: 'true' } }));
  });
});

describe('strict mode output check', () => {
  it('fails naming the mismatch (a 500 on the wire) when an operation returns what it does not declare, and passes it through otherwise', async () => {
    const { createCore } = await import('../index.ts');
    const { createTestDatabase } = await import('../../test/helpers/dialects.ts');
    const { invokeOperation } = await import('./execute.ts');
    const { defineOperation } = await import('./define.ts');
    const database = await createTestDatabase('sqlite');
    const make = (strictErrors: boolean) =>
      createCore({ storage: database.open(), baseUrl: 'http://localhost', secret: 'output-test', strictErrors, environment: 'test' });
    const op = defineOperation({
      id: 'test.drift',
      method: 'GET',
      path: '/drift',
      summary: 'Answers a body its schema does not declare.',
      access: 'public',
      input: {},
      errors: [],
      output: v.strictObject({ id: v.string() }),
      async run() {
        return { id: 'a', undeclared: 1 };
      },
    });
    const request = { method: 'GET', pathname: '/api/v1/drift', credentials: {}, params: {}, query: {}, body: undefined };
    const strict = await make(true);
    try {
      await assert.rejects(invokeOperation(strict.runtime, op, request), (error: Error) => {
        assert.ok(!(error instanceof KnownError), 'a bug, not a refusal');
        assert.match(error.message, /test\.drift answered a body that does not match its output schema/);
        assert.match(error.message, /undeclared/);
        return true;
      });
    } finally {
      await strict.close();
    }
    const lax = await make(false);
    try {
      assert.deepEqual(await invokeOperation(lax.runtime, op, request), { id: 'a', undeclared: 1 });
    } finally {
      await lax.close();
      await database.drop();
    }
  });
});
