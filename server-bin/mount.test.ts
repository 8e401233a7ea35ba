import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import { createGatehouse, type Gatehouse } from './index.ts';
import { KnownError } from '../core/index.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../test/helpers/dialects.ts';
import { describe } from 'node:test';
import { ServerApp } from '../sdk/index.ts';

for (const dialect of testDialects()) {
  describe(`in-process mount [${dialect}]`, () => {
    let database: TestDatabase;
    let gatehouse: Gatehouse;
    let plain: Server;
    let koaServer: Server;
    let plainUrl = '';
    let koaUrl = '';

    before(async () => {
      database = await createTestDatabase(dialect);
      gatehouse = await createGatehouse({
        storage: database.open(),
        baseUrl: 'http://localhost/auth',
        mountPath: '/auth',
        secret: 'mount-test',
        strictErrors: true,
        environment: 'test',
      });
      plain = createServer((req, res) => {
        if (req.url?.startsWith('/auth')) return gatehouse.handler(req, res);
        res.end('host app');
      });
      await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
      plainUrl = `http://127.0.0.1:${(plain.address() as { port: number }).port}`;

      const app = new Koa();
      app.use(gatehouse.middleware);
      app.use((ctx) => {
        ctx.body = 'koa host';
      });
      koaServer = app.listen(0, '127.0.0.1');
      await new Promise<void>((r) => koaServer.once('listening', r));
      koaUrl = `http://127.0.0.1:${(koaServer.address() as { port: number }).port}`;
    });

    after(async () => {
      plain.closeAllConnections();
      koaServer.closeAllConnections();
      await new Promise<void>((r) => plain.close(() => r()));
      await new Promise<void>((r) => koaServer.close(() => r()));
      await gatehouse.close();
      await database.drop();
    });

    it("serves the API under the host server's own path inside a plain node:http server", async () => {
      const res = await fetch(`${plainUrl}/auth/api/v1/projects/current`, {
        headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
      });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { id: string }).id, 'internal');
      assert.equal(await (await fetch(`${plainUrl}/other`)).text(), 'host app');
    });

    it('works as Koa middleware and passes other paths on', async () => {
      const res = await fetch(`${koaUrl}/auth/api/v1`);
      assert.match(await res.text(), /Authentication: None/);
      assert.equal(await (await fetch(`${koaUrl}/elsewhere`)).text(), 'koa host');
    });

    it("core.invoke answers the operation's value or throws its known error, with no HTTP", async () => {
      const client = { projectId: 'internal', accessType: 'client' };
      const project = await gatehouse.core.invoke<{ id: string }>('projects.getCurrent', client);
      assert.equal(project.id, 'internal');
      await assert.rejects(
        gatehouse.core.invoke('users.getCurrent', client),
        (error: KnownError) => error instanceof KnownError && error.code === 'CANNOT_GET_OWN_USER_WITHOUT_USER',
      );
      await assert.rejects(
        gatehouse.core.invoke('projects.getCurrent', { projectId: 'internal' }),
        (error: KnownError) => error.code === 'ACCESS_TYPE_REQUIRED',
      );
    });

    it('dispatch answers exactly as HTTP: status, body and protocol headers, errors, 404s, OPTIONS and the override header', async () => {
      const keys = gatehouse.core.generatedKeys!;
      const client = {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': keys.publishable_client_key!,
      };
      const cases: Array<{ method: string; path: string; headers?: Record<string, string>; body?: string }> = [
        { method: 'GET', path: '/api/v1/projects/current', headers: client },
        {
          method: 'GET',
          path: '/api/latest/projects/current/',
          headers: { 'x-hexclave-project-id': 'internal', 'x-hexclave-access-type': 'client' },
        },
        { method: 'GET', path: '/api/v1/users/me', headers: client },
        { method: 'GET', path: '/api/v1/users/me', headers: { ...client, 'x-stack-override-error-status': 'true' } },
        { method: 'GET', path: '/api/v1/projects/current', headers: { 'x-stack-access-type': 'nobody', 'x-stack-project-id': 'internal' } },
        {
          method: 'POST',
          path: '/api/v1/auth/password/sign-in',
          headers: { ...client, 'content-type': 'application/json' },
          body: '{"email":',
        },
        {
          method: 'POST',
          path: '/api/v1/auth/password/sign-in',
          headers: { ...client, 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
        },
        {
          method: 'GET',
          path: '/api/v1/users?limit=abc&limit=2',
          headers: {
            'x-stack-project-id': 'internal',
            'x-stack-access-type': 'server',
            'x-stack-secret-server-key': keys.secret_server_key!,
          },
        },
        { method: 'GET', path: '/api/v1/no-such-route' },
        { method: 'OPTIONS', path: '/api/v1/users/me', headers: { 'access-control-request-headers': 'x-stack-project-id' } },
      ];
      const compared = [
        'content-type',
        'cache-control',
        'x-stack-known-error',
        'x-hexclave-known-error',
        'x-stack-actual-status',
        'access-control-allow-headers',
        'access-control-expose-headers',
        'x-content-type-options',
      ];
      for (const c of cases) {
        const overHttp = await fetch(`${plainUrl}/auth${c.path}`, { method: c.method, headers: c.headers, body: c.body });
        const inProcess = await gatehouse.dispatch(c);
        const label = `${c.method} ${c.path}`;
        assert.equal(inProcess.status, overHttp.status, label);
        assert.equal(inProcess.text, await overHttp.text(), label);
        for (const name of compared) assert.equal(inProcess.headers[name] ?? null, overHttp.headers.get(name), `${label}: ${name}`);
        assert.equal(typeof (inProcess.headers['x-stack-request-id'] ?? inProcess.headers['x-hexclave-request-id']), 'string', label);
        // The Web-standard handler: the same answer from a Request (mount path included).
        const web = await gatehouse.fetch(
          new Request(`http://localhost/auth${c.path}`, { method: c.method, headers: c.headers, body: c.body }),
        );
        assert.equal(web.status, overHttp.status, `fetch ${label}`);
        assert.equal(await web.text(), inProcess.text, `fetch ${label}`);
        for (const name of compared) assert.equal(web.headers.get(name), overHttp.headers.get(name), `fetch ${label}: ${name}`);
      }
    });

    it('fetch serves the hosted pages and the OpenAPI document through Koa, and 404s outside the mount path', async () => {
      for (const path of ['/auth/handler/sign-in', '/auth/api/v1/openapi.json']) {
        const overHttp = await fetch(`${plainUrl}${path}`);
        const web = await gatehouse.fetch(new Request(`http://localhost${path}`));
        assert.equal(web.status, overHttp.status, path);
        assert.equal(web.headers.get('content-type'), overHttp.headers.get('content-type'), path);
        assert.equal(web.status, 200, path);
      }
      const outside = await gatehouse.fetch(new Request('http://localhost/elsewhere'));
      assert.equal(outside.status, 404);
    });

    it("the README mount and sdk/README's in-process ServerApp({ gatehouse }) work together at a mount path", async () => {
      const keys = gatehouse.core.generatedKeys;
      assert.ok(keys, 'a fresh database generates the internal project keys');
      assert.equal(gatehouse.mountPath, '/auth');
      const server = new ServerApp({ projectId: 'internal', secretServerKey: keys.secret_server_key!, gatehouse, tokenStore: null });
      const created = await server.createUser({
        primaryEmail: `mounted-${Date.now()}@example.com`,
        primaryEmailAuthEnabled: true,
        password: 'correct horse battery',
      });
      const found = await server.getUserById(created.id);
      assert.equal(found?.id, created.id);
    });

    it("a server app on the mount reads the user from the hosted pages' session cookies (Cookie header)", async () => {
      const keys = gatehouse.core.generatedKeys!;
      const server = new ServerApp({ projectId: 'internal', secretServerKey: keys.secret_server_key!, gatehouse, tokenStore: null });
      const email = `cookie-${Date.now()}@example.com`;
      const user = await server.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password: 'correct horse battery' });
      const signIn = await fetch(`${plainUrl}/auth/api/v1/auth/password/sign-in`, {
        method: 'POST',
        body: JSON.stringify({ email, password: 'correct horse battery' }),
        headers: {
          'content-type': 'application/json',
          'x-stack-project-id': 'internal',
          'x-stack-access-type': 'client',
          'x-stack-publishable-client-key': keys.publishable_client_key!,
        },
      });
      assert.equal(signIn.status, 200);
      const { access_token: accessToken, refresh_token: refreshToken } = (await signIn.json()) as {
        access_token: string;
        refresh_token: string;
      };
      // As the cookie token store (sdk/tokens.ts) writes them on the hosted pages, path=/.
      const cookie = `theme=dark; stack-refresh-internal=${encodeURIComponent(refreshToken)}; stack-access=${encodeURIComponent(JSON.stringify([refreshToken, accessToken]))}`;
      assert.equal((await server.getUserFromTokens({ headers: { cookie } }))?.id, user.id);
      assert.equal(
        (await server.getUserFromTokens({ headers: new Headers({ cookie: `stack-refresh-internal=${encodeURIComponent(refreshToken)}` }) }))
          ?.id,
        user.id,
        'the refresh cookie alone is enough',
      );
      assert.equal(await server.getUserFromTokens({ headers: { cookie: 'theme=dark' } }), null);
    });

    it('library mode tells the developer, on first start, where the keys are (never their values) and the next step at its mount path', async () => {
      const fresh = await createTestDatabase(dialect);
      const notices: string[] = [];
      const lib = await createGatehouse({
        storage: fresh.open(),
        baseUrl: 'http://localhost:3000/auth',
        mountPath: '/auth',
        secret: 'notice-test',
        environment: 'test',
        onFirstStartNotice: (text) => notices.push(text),
      });
      try {
        assert.equal(notices.length, 1);
        const keys = lib.core.generatedKeys!;
        // A library does not write secrets to the host app's stderr: the keys are returned instead.
        for (const secret of [keys.secret_server_key!, keys.super_secret_admin_key!, keys.publishable_client_key!])
          assert.ok(!notices[0]!.includes(secret), 'no key in the notice');
        assert.match(notices[0]!, /gatehouse\.core\.generatedKeys/);
        assert.match(notices[0]!, /create a project for your app/);
        assert.match(notices[0]!, /http:\/\/localhost:3000\/auth\/projects\/<project id>\/handler\/sign-in/);
      } finally {
        await lib.close();
        await fresh.drop();
      }
    });
  });
}
