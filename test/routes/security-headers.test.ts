import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';

/**
 * No `X-Content-Type-Options: nosniff` on API responses, and no HSTS with an
 * https base URL. Every kind of response is checked: success, known error, plain-text 404,
 * CORS preflight, health.
 */

const requests: Array<[string, string, Record<string, string>]> = [
  ['GET', '/api/v1', {}],
  ['GET', '/api/v1/users/me', { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' }],
  ['GET', '/api/v1/no/such/route', {}],
  ['OPTIONS', '/api/v1/users/me', { origin: 'http://example.com', 'access-control-request-method': 'GET' }],
  ['POST', '/api/v1/users', { 'content-type': 'application/json', 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' }],
  ['GET', '/health', {}],
];

describeWithServer('security headers with an http base URL', (get) => {
  it('sends nosniff on every API response, and no HSTS over http', async () => {
    for (const [method, path, headers] of requests) {
      const res = await fetch(`${get().url}${path}`, { method, headers, body: method === 'POST' ? '{oops' : undefined });
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${method} ${path} (${res.status})`);
      assert.equal(res.headers.get('strict-transport-security'), null, `${method} ${path}`);
    }
  });
});

describeWithServer(
  'security headers with an https base URL',
  (get) => {
    it('sends Strict-Transport-Security (one year, subdomains) and nosniff on every response', async () => {
      for (const [method, path, headers] of requests) {
        const res = await fetch(`${get().url}${path}`, { method, headers, body: method === 'POST' ? '{oops' : undefined });
        assert.equal(
          res.headers.get('strict-transport-security'),
          'max-age=31536000; includeSubDomains',
          `${method} ${path} (${res.status})`,
        );
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${method} ${path}`);
      }
    });
  },
  { baseUrl: 'https://auth.example.com' },
);
