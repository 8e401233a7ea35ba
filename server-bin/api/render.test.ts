import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KnownError, RateLimitError, StatusError, type AnyOperation, type StatusKind } from '../../core/index.ts';
import type { Runtime } from '../../core/runtime.ts';
import { reply } from '../../core/operations/define.ts';
import { errorResponse, successResponse } from './render.ts';
import { STATUS_OF_KIND } from './status.ts';

/** Just what errorResponse reads from a runtime. */
const runtime = { storage: { isUnavailable: () => false }, log: { warn() {}, error() {} }, environment: 'test' } as unknown as Runtime;
const op = (created?: boolean) => ({ id: 'test.op', created }) as unknown as AnyOperation;

describe('protocol rendering (core values → status, headers, body)', () => {
  it("maps every plain status kind to upstream's status and sends the message as the whole text body", () => {
    const expected: Record<StatusKind, number> = {
      'bad-request': 400,
      unauthorized: 401,
      forbidden: 403,
      'not-found': 404,
      conflict: 409,
      'too-many-requests': 429,
    };
    assert.deepEqual(STATUS_OF_KIND, expected);
    const res = errorResponse(runtime, new StatusError('forbidden', 'OTP sign-in is not enabled for this project'));
    assert.deepEqual(res, {
      status: 403,
      contentType: 'text/plain; charset=utf-8',
      body: 'OTP sign-in is not enabled for this project',
      headers: {},
    });
  });

  it('renders a known error with its catalogue status and code, rate limits as 429 {message} with Retry-After, anything else as 500', () => {
    const known = errorResponse(runtime, new KnownError('USER_NOT_FOUND'));
    assert.equal(known.status, 404);
    assert.equal(known.knownError, 'USER_NOT_FOUND');
    assert.deepEqual(JSON.parse(known.body), { code: 'USER_NOT_FOUND', error: new KnownError('USER_NOT_FOUND').message });
    const limited = errorResponse(runtime, new RateLimitError('slow down', 7));
    assert.deepEqual([limited.status, limited.body, limited.headers], [429, '{"message":"slow down"}', { 'retry-after': '7' }]);
    assert.deepEqual(errorResponse(runtime, new RateLimitError('locked', null)).headers, {});
    const bug = errorResponse(runtime, new Error('boom'));
    assert.equal(bug.status, 500);
    assert.ok(bug.cause instanceof Error);
  });

  it('renders success values: JSON (201 when created), text, pages with their policy, cacheable JSON, redirects and event streams', () => {
    assert.deepEqual(successResponse(op(), undefined), {
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: '{"success":true}',
      headers: {},
    });
    assert.equal(successResponse(op(true), { id: 'a' }).status, 201);
    assert.deepEqual(successResponse(op(), reply.text('hi')), {
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: 'hi',
      headers: {},
    });
    assert.deepEqual(successResponse(op(), reply.html('<p>')).headers, {});
    assert.deepEqual(successResponse(op(), reply.html('<p>', { policy: "default-src 'none'" })).headers, {
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'",
    });
    const jwks = successResponse(op(), reply.json({ keys: [] }, { cacheFor: 3600 }));
    assert.deepEqual([jwks.status, jwks.body, jwks.headers], [200, '{"keys":[]}', { 'cache-control': 'public, max-age=3600' }]);
    assert.equal(successResponse(op(), reply.json({}, { created: true })).status, 201);
    assert.deepEqual(successResponse(op(), reply.redirect('https://a.example/x')), {
      status: 307,
      contentType: 'text/plain; charset=utf-8',
      body: '',
      headers: { location: 'https://a.example/x' },
    });
    assert.equal(successResponse(op(), reply.redirect('/x', { seeOther: true })).status, 303);
    const events = successResponse(
      op(),
      reply.events(async function* () {
        yield 'data: 1\n\n';
      }),
    );
    assert.equal(events.contentType, 'text/event-stream; charset=utf-8');
    assert.equal(typeof events.stream, 'function');
  });
});
