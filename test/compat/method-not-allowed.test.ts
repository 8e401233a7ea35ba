import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';

// Upstream's route files are Next.js route handlers: a method the file does not export answers an
// empty 405 (its e2e: internal/component-versions.test.ts "should reject non-GET methods",
// integrations/neon/oauth-providers.test.ts `GET …/oauth-providers/google` → 405 with no body).

describeWithServer('a route called with another method', (get) => {
  it('answers 405 with an empty body and the methods it has in `Allow`', async () => {
    const res = await fetch(`${get().url}/api/v1/internal/component-versions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 405);
    assert.equal(await res.text(), '');
    assert.equal(res.headers.get('content-type'), null);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.ok(res.headers.get('x-stack-request-id'));
  });

  it('names every method of a path with several routes (parameter routes included), under /api/latest too', async () => {
    const res = await fetch(`${get().url}/api/latest/users/me`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'DELETE, GET, HEAD, OPTIONS, PATCH');
    const put = await fetch(`${get().url}/api/v1/emails/render-email`, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'OPTIONS, POST');
  });

  it('keeps the plain-text 404 for a path no route has, and answers the right method as before', async () => {
    const missing = await fetch(`${get().url}/api/v1/internal/no-such-route`, { method: 'POST' });
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /^404 /);
    const ok = await fetch(`${get().url}/api/v1/internal/component-versions`);
    assert.equal(ok.status, 200);
  });
});
