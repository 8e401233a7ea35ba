/**
 * The host adapters keep the mount prefix: each framework below hands the
 * adapter a request whose URL it has rewritten or whose body it would parse, and each test fails
 * when the adapter's fix is dropped —
 * - Express removes the mount path from `req.url` in `app.use('/auth', …)`: `expressHandler`
 *   serves `req.originalUrl` (without it every request answers 404);
 * - koa-mount rewrites `ctx.path` (and `req.url`) below its mount: `gatehouse.middleware` serves
 *   `ctx.originalUrl` (without it, 404 or the host's answer);
 * - Fastify parses JSON bodies and answers 404 for `/auth` itself unless a route matches it:
 *   `fastifyPlugin` registers `/` and `/*` under the prefix with no body parser (without them a
 *   POST's body never reaches Gatehouse, and `/auth?…` is Fastify's 404).
 * Each request also checks that paths outside `/auth` still reach the host app.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import mount from 'koa-mount';
import { createGatehouse, expressHandler, fastifyPlugin, type Gatehouse } from './index.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../test/helpers/dialects.ts';

const clientHeaders = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' };

async function listen(server: Server): Promise<string> {
  if (!server.listening) await new Promise<void>((r) => server.once('listening', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/**
 * A password sign-in POST with a JSON body for an unknown address: the body must reach Gatehouse
 * unread by the host, or the answer would be a schema error (or no answer) instead of the
 * credentials' own error.
 */
async function assertJsonPostReachesGatehouse(base: string, email: string): Promise<void> {
  const res = await fetch(`${base}/auth/api/v1/auth/password/sign-in`, {
    method: 'POST',
    headers: { ...clientHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple' }),
  });
  const text = await res.text();
  assert.equal(res.status, 400, text);
  assert.equal(res.headers.get('x-stack-known-error'), 'EMAIL_PASSWORD_MISMATCH', text);
}

for (const dialect of testDialects()) {
  describe(`host adapters keep the mount prefix [${dialect}]`, () => {
    let database: TestDatabase;
    let gatehouse: Gatehouse;
    const servers: Server[] = [];

    before(async () => {
      database = await createTestDatabase(dialect);
      gatehouse = await createGatehouse({
        storage: database.open(),
        baseUrl: 'http://localhost/auth',
        mountPath: '/auth',
        secret: 'hosts-test',
        strictErrors: true,
        environment: 'test',
      });
    });
    after(async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
      await gatehouse.close();
      await database.drop();
    });

    it("Express: app.use('/auth', expressHandler(gatehouse)) serves the API and a JSON POST; other paths reach the app", async () => {
      const app = express();
      app.use('/auth', expressHandler(gatehouse));
      app.use('/auth', (_req, res) => {
        res.status(418).send('fell through the mount');
      });
      app.get('/other', (_req, res) => {
        res.send('express host');
      });
      const server = app.listen(0, '127.0.0.1');
      servers.push(server);
      const base = await listen(server);

      const current = await fetch(`${base}/auth/api/v1/projects/current`, { headers: clientHeaders });
      assert.equal(current.status, 200);
      assert.equal(((await current.json()) as { id: string }).id, 'internal');
      await assertJsonPostReachesGatehouse(base, 'express@example.com');
      assert.equal(await (await fetch(`${base}/other`)).text(), 'express host');
    });

    it("Koa: koa-mount('/auth', gatehouse.middleware) serves the API and a JSON POST; other paths reach the app", async () => {
      const app = new Koa();
      app.use(mount('/auth', gatehouse.middleware));
      app.use((ctx) => {
        ctx.body = `koa host ${ctx.path}`;
      });
      const server = app.listen(0, '127.0.0.1');
      servers.push(server);
      const base = await listen(server);

      const current = await fetch(`${base}/auth/api/v1/projects/current`, { headers: clientHeaders });
      assert.equal(current.status, 200, await current.clone().text());
      assert.equal(((await current.json()) as { id: string }).id, 'internal');
      await assertJsonPostReachesGatehouse(base, 'koa@example.com');
      assert.equal(await (await fetch(`${base}/other`)).text(), 'koa host /other');
    });

    it("Fastify: register(fastifyPlugin(gatehouse), { prefix: '/auth' }) serves the API, a JSON POST and /auth itself; other routes keep their parsers", async () => {
      const app = Fastify();
      await app.register(fastifyPlugin(gatehouse), { prefix: '/auth' });
      app.post('/echo', async (request) => ({ parsed: request.body }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      servers.push(app.server);
      const base = await listen(app.server);

      const current = await fetch(`${base}/auth/api/v1/projects/current`, { headers: clientHeaders });
      assert.equal(current.status, 200);
      assert.equal(((await current.json()) as { id: string }).id, 'internal');
      await assertJsonPostReachesGatehouse(base, 'fastify@example.com');
      // `/auth` itself is Gatehouse's (its answer, not Fastify's JSON 404).
      const rootOfMount = await fetch(`${base}/auth`, { redirect: 'manual' });
      assert.doesNotMatch(await rootOfMount.text(), /"Route GET:\/auth not found"/);
      // The plugin's "no body parser" stays inside its own scope.
      const echoed = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      assert.deepEqual(await echoed.json(), { parsed: { a: 1 } });
    });
  });
}
