import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, type Server } from 'node:http';
import Router from '@koa/router';
import { createGatehouse, type Gatehouse } from '../index.ts';
import { createApiRoutes } from '../protocol/routes.ts';
import { operations } from '../../core/index.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/helpers/dialects.ts';

/** Headers that differ between any two answers (or only say which transport answered). */
const UNCOMPARED = new Set(['date', 'x-stack-request-id', 'x-hexclave-request-id', 'connection', 'keep-alive', 'transfer-encoding']);

for (const dialect of testDialects()) {
  describe(`API lane [${dialect}]`, () => {
    let database: TestDatabase;
    let gatehouse: Gatehouse;
    let laneServer: Server;
    let koaServer: Server;
    let laneUrl = '';
    let koaUrl = '';
    const client = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' };
    let accessToken = '';

    before(async () => {
      database = await createTestDatabase(dialect);
      gatehouse = await createGatehouse({ storage: database.open(), baseUrl: 'http://localhost', secret: 'lane-test', strictErrors: true, environment: 'test' });
      // The mounted handler: the lane answers /api/, Koa the rest. The Koa app alone: Koa answers everything.
      laneServer = createServer(gatehouse.handler);
      const koa = gatehouse.app.callback();
      koaServer = createServer((req, res) => void koa(req, res));
      for (const server of [laneServer, koaServer]) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      laneUrl = `http://127.0.0.1:${(laneServer.address() as { port: number }).port}`;
      koaUrl = `http://127.0.0.1:${(koaServer.address() as { port: number }).port}`;
      const res = await fetch(`${laneUrl}/api/v1/auth/password/sign-up`, {
        method: 'POST', headers: { ...client, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'lane@example.com', password: 'a long enough password 1' }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      accessToken = ((await res.json()) as { access_token: string }).access_token;
    });

    after(async () => {
      for (const server of [laneServer, koaServer]) {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
      await gatehouse.close();
      await database.drop();
    });

    it('answers every kind of API request exactly as the Koa app: status, headers and body', async () => {
      const user = () => ({ ...client, 'x-stack-access-token': accessToken });
      const json = { ...client, 'content-type': 'application/json' };
      const cases: Array<{ method: string; path: string; headers?: () => Record<string, string>; body?: string }> = [
        { method: 'GET', path: '/api/v1/users/me', headers: user },
        { method: 'HEAD', path: '/api/v1/users/me', headers: user },
        { method: 'GET', path: '/api/latest/users/me/', headers: user },
        { method: 'GET', path: '/API/V1/Users/Me', headers: user },
        { method: 'GET', path: '/api/v1/users/me', headers: () => ({ ...client, 'x-stack-override-error-status': 'true' }) },
        { method: 'GET', path: '/api/v1/users/me', headers: () => ({ 'x-hexclave-project-id': 'internal', 'x-hexclave-access-type': 'client' }) },
        { method: 'GET', path: '/api/v1/projects/current?x=1&x=2', headers: () => client },
        { method: 'GET', path: '/api/v1', headers: () => ({}) },
        { method: 'GET', path: '/api/v1/no-such-route', headers: () => client },
        { method: 'DELETE', path: '/api/v1/users/me/nothing', headers: () => client },
        { method: 'OPTIONS', path: '/api/v1/users/me', headers: () => ({ 'access-control-request-headers': 'x-stack-project-id, content-type' }) },
        { method: 'POST', path: '/api/v1/auth/password/sign-in', headers: () => json, body: '{"email":' },
        { method: 'POST', path: '/api/v1/auth/password/sign-in', headers: () => ({ ...client, 'content-type': 'text/xml' }), body: '<a/>' },
        { method: 'POST', path: '/api/v1/auth/password/sign-in', headers: () => json, body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password 1' }) },
        { method: 'POST', path: '/api/v1/auth/password/sign-in', headers: () => json, body: JSON.stringify({ email: 'x', password: 1, extra: { deep: true } }) },
        { method: 'GET', path: '/api/v1/users?limit=abc', headers: () => ({ ...client, 'x-stack-access-type': 'server' }) },
        { method: 'PATCH', path: '/api/v1/users/me', headers: () => ({ ...user(), 'content-type': 'application/json' }), body: JSON.stringify({ display_name: 'Lane' }) },
      ];
      for (const c of cases) {
        const label = `${c.method} ${c.path}`;
        const init = { method: c.method, headers: c.headers?.() ?? {}, body: c.body };
        const [viaLane, viaKoa] = [await fetch(`${laneUrl}${c.path}`, init), await fetch(`${koaUrl}${c.path}`, init)];
        assert.equal(viaLane.status, viaKoa.status, label);
        assert.equal(await viaLane.text(), await viaKoa.text(), label);
        const headersOf = (res: Response) => [...res.headers].filter(([name]) => !UNCOMPARED.has(name)).sort(([a], [b]) => a.localeCompare(b));
        assert.deepEqual(headersOf(viaLane), headersOf(viaKoa), label);
        assert.ok(viaLane.headers.get('x-stack-request-id') ?? viaLane.headers.get('x-hexclave-request-id'), `${label}: request id`);
      }
    });

    it('refuses a body over the limit with the catalogue error, as Koa does', async () => {
      const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(5 * 1024 * 1024 + 10) });
      for (const url of [laneUrl, koaUrl]) {
        const res = await fetch(`${url}/api/v1/auth/password/sign-in`, { method: 'POST', headers: { ...client, 'content-type': 'application/json' }, body: big });
        assert.equal(res.status, 400);
        assert.equal(res.headers.get('x-stack-known-error'), 'BODY_PARSING_ERROR');
      }
    });

    it('leaves the OpenAPI document, cookie-bridge requests and pages to Koa', async () => {
      const doc = await fetch(`${laneUrl}/api/v1/openapi.json`);
      assert.equal(doc.status, 200);
      assert.ok(doc.headers.get('etag'), 'the OpenAPI document is served with its ETag');
      const health = await fetch(`${laneUrl}/health`);
      assert.equal(((await health.json()) as { status: string }).status, 'ok');
      // A bridge request's answer carries the HttpOnly refresh cookie and a placeholder, which only the Koa chain sets.
      const res = await fetch(`${laneUrl}/api/v1/auth/password/sign-in`, {
        method: 'POST',
        headers: { ...client, 'content-type': 'application/json', 'x-gatehouse-cookie-bridge': '1' },
        body: JSON.stringify({ email: 'lane@example.com', password: 'a long enough password 1' }),
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('set-cookie') ?? '', /^gatehouse-refresh-internal=/);
      assert.match(((await res.json()) as { refresh_token: string }).refresh_token, /^gatehouse-httponly-cookie\./);
    });
  });
}

describe('API route table', () => {
  it('finds the operation @koa/router would match, for every route, method and spelling', () => {
    {
      const routes = createApiRoutes(operations);
      const router = new Router();
      for (const op of operations) router.register(op.path === '/' ? '/api/v1' : `/api/v1${op.path}`, [op.method], () => {});
      const ops = operations;
      let compared = 0;
      for (const op of ops) {
        const concrete = op.path.replace(/:([a-z_]+)/gi, (_, name: string) => `${name}-value`);
        for (const path of [`/api/v1${concrete === '/' ? '' : concrete}`, `/api/latest${concrete}`, `/api/v1${concrete}/`.replace(/\/\/$/, '/'), `/API/V1${concrete.toUpperCase()}`]) {
          for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE']) {
            const routed = path.replace(/^\/api\/latest/, '/api/v1');
            const expected = router.match(routed, method).pathAndMethod[0];
            const found = routes.find(method, path);
            const expectedOp = expected ? ops[router.stack.indexOf(expected)] : undefined;
            assert.equal(found?.op.id, expectedOp?.id, `${method} ${path}`);
            if (expected && found) assert.deepEqual(found.params, { ...expected.params(routed, expected.captures(routed)) }, `${method} ${path}: params`);
            compared++;
          }
        }
      }
      assert.ok(compared > ops.length * 20);
      assert.equal(routes.find('GET', '/api/v1users/me'), null);
      assert.equal(routes.find('GET', '/api/v2/users/me'), null);
    }
  });
});
