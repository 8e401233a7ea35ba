import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys } from '../../test/helpers/api.ts';

const DAY = 86_400_000;

describeWithServer('metrics', (get) => {
  it('counts users, sign-ups per day, daily active users, countries and login methods', async () => {
    const server = get();
    const created = await createProject(server);
    // Project keys, not the owner's admin access token: the test moves the clock past its expiry.
    const keys = await createProjectKeys(server, created.admin);
    const p = {
      server: { projectId: created.projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey },
      admin: { projectId: created.projectId, accessType: 'admin' as const, superSecretAdminKey: keys.superSecretAdminKey },
    };
    const a = await api(server, 'POST', '/users', p.server, { primary_email: 'a@example.com', country_code: 'CH', password: 'correct horse battery' });
    await api(server, 'POST', '/users', p.server, { primary_email: 'b@example.com', country_code: 'CH', otp_auth_enabled: true });
    await api(server, 'POST', '/users', p.server, { is_anonymous: true });
    server.clock.advance(DAY);
    const c = await api(server, 'POST', '/users', p.server, { primary_email: 'c@example.com', country_code: 'DE' });
    const session = await api(server, 'POST', '/auth/sessions', p.server, { user_id: a.body.id });
    await api(server, 'POST', '/auth/sessions', p.server, { user_id: c.body.id, is_impersonation: true });

    const res = await api(server, 'GET', '/internal/metrics', p.admin);
    assert.equal(res.status, 200, res.text);
    const m = res.body;
    assert.equal(m.total_users, 3);
    assert.equal(m.daily_users.length, 30);
    const today = new Date(server.clock.now()).toISOString().slice(0, 10);
    const yesterday = new Date(server.clock.now() - DAY).toISOString().slice(0, 10);
    assert.deepEqual(m.daily_users.at(-1), { date: today, activity: 1 });
    assert.deepEqual(m.daily_users.at(-2), { date: yesterday, activity: 2 });
    // Today only a signed in: c was created by the server and only impersonated, which is not activity.
    assert.equal(m.daily_active_users.at(-1).date, today);
    assert.equal(m.daily_active_users.at(-1).activity, 1);
    assert.deepEqual(m.users_by_country, { CH: 2, DE: 1 });
    assert.equal(m.recently_registered[0].id, c.body.id);
    assert.equal(m.recently_registered.length, 3);
    assert.ok('risk_scores' in m.recently_registered[0]);
    assert.deepEqual(m.login_methods.find((x: { method: string }) => x.method === 'password'), { method: 'password', count: 1 });
    assert.ok(session.status === 200);

    const withAnon = await api(server, 'GET', '/internal/metrics?include_anonymous=true', p.admin);
    assert.equal(withAnon.body.total_users, 4);
  });

  it('keeps projects apart and is admin only', async () => {
    const server = get();
    const p = await createProject(server);
    const q = await createProject(server);
    await api(server, 'POST', '/users', p.server, {});
    assert.equal((await api(server, 'GET', '/internal/metrics', q.admin)).body.total_users, 0);
    assertKnownError(await api(server, 'GET', '/internal/metrics', p.server), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'GET', '/internal/metrics?include_anonymous=maybe', p.admin), 'SCHEMA_ERROR', 400);
  });
});
