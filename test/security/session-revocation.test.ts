import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../helpers/api.ts';
import { INTERNAL_KEYS, type TestServer } from '../helpers/server.ts';
import { startSecondProcess } from '../helpers/second-process.ts';

// An access token kept working for up to its whole lifetime (10 min) after
// sign-out or server-side session deletion. Gatehouse's own endpoints now refuse it at once in
// the process that revoked it, and within the revocation poll interval in any other process.

const POLL_MS = 300;

async function signUp(server: TestServer, client: Caller) {
  const res = await api(server, 'POST', '/auth/password/sign-up', client, {
    email: `u-${Math.random().toString(36).slice(2)}@example.com`,
    password: 'a long enough pass 1',
  });
  assert.equal(res.status, 200, res.text);
  return res.body as { access_token: string; refresh_token: string; user_id: string };
}

describeWithServer('access tokens of revoked sessions (issue 12 finding 9)', (get) => {
  it('refuses the access token on the next request after sign-out', async () => {
    const server = get();
    const { client } = await createProject(server);
    const s = await signUp(server, client);
    const caller = { ...client, accessToken: s.access_token };
    assert.equal((await api(server, 'GET', '/users/me', caller)).status, 200);
    assert.equal((await api(server, 'DELETE', '/auth/sessions/current', caller)).status, 200);
    assertKnownError(await api(server, 'GET', '/users/me', caller), 'UNPARSABLE_ACCESS_TOKEN', 401);
  });

  it('refuses the access token of a session deleted server-side, and keeps other sessions working', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server);
    const s = await signUp(server, client);
    const keep = await api(server, 'POST', '/auth/password/sign-in', client, {
      email: (await api(server, 'GET', `/users/${s.user_id}`, srv)).body.primary_email,
      password: 'a long enough pass 1',
    });
    const sessions = await api(server, 'GET', `/auth/sessions?user_id=${s.user_id}`, srv);
    const victim = sessions.body.items.find(
      (i: { id: string }) =>
        i.id !== JSON.parse(Buffer.from(keep.body.access_token.split('.')[1], 'base64url').toString()).refresh_token_id,
    );
    assert.equal((await api(server, 'DELETE', `/auth/sessions/${victim.id}?user_id=${s.user_id}`, srv)).status, 200);
    assertKnownError(await api(server, 'GET', '/users/me', { ...client, accessToken: s.access_token }), 'UNPARSABLE_ACCESS_TOKEN', 401);
    assert.equal((await api(server, 'GET', '/users/me', { ...client, accessToken: keep.body.access_token })).status, 200);
  });

  it('refuses the access tokens of sessions a password reset or change revoked', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server);
    const s = await signUp(server, client);
    assert.equal((await api(server, 'PATCH', `/users/${s.user_id}`, srv, { password: 'server set pass 2' })).status, 200);
    assertKnownError(await api(server, 'GET', '/users/me', { ...client, accessToken: s.access_token }), 'UNPARSABLE_ACCESS_TOKEN', 401);
  });

  it('another process refuses the token within seconds (its revocation poll interval)', async () => {
    const server = get();
    const other = await startSecondProcess(server, { revocationPollMs: POLL_MS });
    after(() => other.close());
    const { client } = await createProject(server);
    const s = await signUp(server, client);
    const caller = { ...client, accessToken: s.access_token };
    assert.equal((await api(other.view, 'GET', '/users/me', caller)).status, 200, 'the other process accepts the live token');
    assert.equal((await api(server, 'DELETE', '/auth/sessions/current', caller)).status, 200);
    const revokedAt = performance.now();
    let refusedAfter = Infinity;
    while (performance.now() - revokedAt < 5_000) {
      const res = await api(other.view, 'GET', '/users/me', caller);
      if (res.status === 401) {
        assertKnownError(res, 'UNPARSABLE_ACCESS_TOKEN', 401);
        refusedAfter = performance.now() - revokedAt;
        break;
      }
      await sleep(50);
    }
    assert.ok(refusedAfter < 5_000, 'the other process refuses the revoked token within seconds');
  });

  it('refuses a dashboard admin access token after its session is signed out', async () => {
    const server = get();
    const { owner, projectId } = await createProject(server);
    const admin: Caller = { projectId, accessType: 'admin', adminAccessToken: owner.accessToken };
    assert.equal((await api(server, 'GET', '/internal/projects/current', admin)).status, 200);
    const internal = {
      projectId: 'internal',
      accessType: 'client' as const,
      publishableClientKey: INTERNAL_KEYS.publishableClientKey,
      accessToken: owner.accessToken,
    };
    assert.equal((await api(server, 'DELETE', '/auth/sessions/current', internal)).status, 200);
    assertKnownError(await api(server, 'GET', '/internal/projects/current', admin), 'UNPARSABLE_ADMIN_ACCESS_TOKEN', 401);
  });
});
