import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../test/helpers/suite.ts';
import { INTERNAL_KEYS, type TestServer } from '../test/helpers/server.ts';
import { AdminApp, ClientApp, GatehouseKnownError, ServerApp, inProcessTransport, type Transport } from './index.ts';
import { httpTransport } from './transport.ts';

const transports: [string, (s: TestServer) => Transport][] = [
  ['HTTP', (s) => httpTransport(s.url, fetch)],
  ['in-process', (s) => inProcessTransport(s.gatehouse)],
];

describeWithServer('SDK with a mounted Gatehouse', (get) => {
  it('takes the mounted Gatehouse as its transport (no socket) with the same answers as HTTP', async () => {
    const viaHandler = new ClientApp({ projectId: 'internal', gatehouse: get().gatehouse, tokenStore: 'memory' });
    const viaHttp = new ClientApp({ projectId: 'internal', baseUrl: get().url, tokenStore: 'memory' });
    assert.deepEqual(await viaHandler.getProject(), await viaHttp.getProject());
    const bad = await viaHandler.signInWithCredential({ email: 'nobody@example.com', password: 'whatever-123', noRedirect: true });
    assert.equal(bad.status === 'error' && bad.error.code, 'EMAIL_PASSWORD_MISMATCH');
  });
});

describeWithServer('SDK against a real server', (get) => {
  for (const [name, make] of transports) {
    it(`${name}: creates a user with the server app and reads it back as the signed-in client`, async () => {
      const transport = make(get());
      const env = { now: () => get().clock.now() };
      const server = new ServerApp({
        projectId: 'internal',
        transport,
        secretServerKey: INTERNAL_KEYS.secretServerKey,
        tokenStore: null,
        environment: env,
      });
      const created = await server.createUser({
        primaryEmail: `sdk-${name}@example.com`,
        primaryEmailVerified: true,
        displayName: 'Grace',
      });
      assert.equal(created.displayName, 'Grace');
      assert.equal(created.primaryEmail, `sdk-${name.toLowerCase()}@example.com`);
      const tokens = await created.createSession();

      const client = new ClientApp({
        projectId: 'internal',
        transport,
        publishableClientKey: INTERNAL_KEYS.publishableClientKey,
        tokenStore: tokens,
        environment: env,
      });
      const me = await client.getUser({ or: 'throw' });
      assert.equal(me?.id, created.id);
      assert.equal(me?.displayName, 'Grace');
      assert.ok(me?.signedUpAt instanceof Date);
      const sessions = await me!.getActiveSessions();
      assert.equal(sessions.length, 1);
      assert.equal(sessions[0]?.isCurrentSession, true);

      const project = await client.getProject();
      assert.equal(project.id, 'internal');

      await client.signOut();
      assert.equal(await client.getUser(), null);
      const again = new ClientApp({
        projectId: 'internal',
        transport,
        publishableClientKey: INTERNAL_KEYS.publishableClientKey,
        tokenStore: { accessToken: null, refreshToken: tokens.refreshToken },
        environment: env,
      });
      assert.equal(await again.getUser(), null, 'the refresh token stops working after sign-out');
      assert.equal(again.session?.isKnownInvalid(), true);

      const byId = await server.getUserById(created.id);
      assert.equal(byId?.id, created.id);
      assert.equal(await server.getUserById('5c1e9a4e-0000-4000-8000-000000000000'), null);
    });

    it(`${name}: refreshes an expired access token through /auth/oauth/token`, async () => {
      const transport = make(get());
      const env = { now: () => get().clock.now() };
      const server = new ServerApp({
        projectId: 'internal',
        transport,
        secretServerKey: INTERNAL_KEYS.secretServerKey,
        tokenStore: null,
        environment: env,
      });
      const user = await server.createUser({ primaryEmail: `refresh-${name}@example.com` });
      const tokens = await user.createSession();
      const client = new ClientApp({ projectId: 'internal', transport, tokenStore: tokens, environment: env });
      get().clock.advance(11 * 60_000);
      const me = await client.getUser();
      assert.equal(me?.id, user.id);
      assert.notEqual(client.session?.tokens().accessToken, tokens.accessToken);
    });

    it(`${name}: raises typed known errors and admin calls work with the admin key`, async () => {
      const transport = make(get());
      const admin = new AdminApp({ projectId: 'internal', transport, superSecretAdminKey: INTERNAL_KEYS.superSecretAdminKey });
      const project = await admin.getAdminProject();
      assert.equal(project.id, 'internal');
      const keys = await admin.listInternalApiKeys();
      assert.ok(keys.length >= 1);
      // The built-in templates are listed (the answer is `{templates}`, not a list envelope).
      const templates = await admin.listEmailTemplates();
      assert.ok(templates.length >= 1 && templates.every((t) => typeof t.id === 'string' && typeof t.tsx_source === 'string'));
      const client = new ClientApp({ projectId: 'internal', transport, tokenStore: null });
      await assert.rejects(
        new ServerApp({ projectId: 'internal', transport, secretServerKey: 'ssk_wrong', tokenStore: null }).createUser({
          primaryEmail: 'x@example.com',
        }),
        (e: unknown) => e instanceof GatehouseKnownError && e.code === 'INVALID_SECRET_SERVER_KEY' && e.status === 401,
      );
      assert.equal(await client.getUser(), null);
    });
  }
});
