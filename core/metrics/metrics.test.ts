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

  it('answers upstream\'s overview shape: auth, email, payments and analytics overviews, with zeros where there is no data', async () => {
    const server = get();
    // A project SMTP server (unreachable: the email stays in the outbox) so send-email is allowed.
    const created = await createProject(server, { email_config: { type: 'standard', host: '127.0.0.1', port: 9, username: 'u', password: 'p', sender_name: 'S', sender_email: 'noreply@example.com' } });
    const keys = await createProjectKeys(server, created.admin);
    const p = {
      server: { projectId: created.projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey },
      client: { projectId: created.projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey },
      admin: { projectId: created.projectId, accessType: 'admin' as const, superSecretAdminKey: keys.superSecretAdminKey },
    };
    const a = await api(server, 'POST', '/users', p.server, { primary_email: 'a@example.com', primary_email_verified: true });
    await api(server, 'POST', '/users', p.server, { primary_email: 'b@example.com' });
    await api(server, 'POST', '/auth/anonymous/sign-up', p.client, {});
    await api(server, 'POST', '/teams', p.server, { display_name: 'T' });
    await api(server, 'POST', '/auth/sessions', p.server, { user_id: a.body.id });
    // One email in the outbox (no mail server configured in this test).
    await api(server, 'POST', '/emails/send-email', p.admin, { user_ids: [a.body.id], html: '<p>Hi</p>', subject: 'Hello', notification_category_name: 'Transactional' });

    const m = (await api(server, 'GET', '/internal/metrics', p.admin)).body;
    assert.deepEqual(Object.keys(m).sort(), [
      'active_users_by_country', 'analytics_overview', 'auth_overview', 'daily_active_users', 'daily_users', 'email_overview', 'live_users',
      'login_methods', 'payments_overview', 'recently_active', 'recently_registered', 'total_users', 'users_by_country',
    ]);
    const auth = m.auth_overview;
    assert.deepEqual(Object.keys(auth).sort(), ['anonymous_users', 'daily_active_teams_split', 'daily_active_users_split', 'mau', 'total_teams', 'total_users_filtered', 'unverified_users', 'verified_users']);
    assert.equal(auth.verified_users, 1);
    assert.equal(auth.unverified_users, 1);
    assert.equal(auth.anonymous_users, 1);
    assert.equal(auth.total_teams, 1);
    assert.equal(auth.mau, 1);
    assert.equal(auth.total_users_filtered, 2);
    assert.deepEqual(Object.keys(auth.daily_active_users_split).sort(), ['new', 'reactivated', 'retained', 'total']);
    assert.equal(auth.daily_active_users_split.total.length, 30);
    assert.deepEqual(auth.daily_active_users_split.total.at(-1), m.daily_active_users.at(-1));
    assert.deepEqual(auth.daily_active_teams_split.total.at(-1).activity, 0);

    const email = m.email_overview;
    assert.deepEqual(Object.keys(email).sort(), ['bounce_rate', 'click_rate', 'daily_emails', 'daily_emails_by_status', 'deliverability_rate', 'deliverability_status', 'emails_by_status', 'emails_sent', 'recent_emails', 'total_emails']);
    assert.equal(email.total_emails, 1);
    assert.equal(email.daily_emails.length, 30);
    assert.equal(email.daily_emails.at(-1).activity, 1);
    assert.deepEqual(Object.keys(email.daily_emails_by_status.at(-1)).sort(), ['date', 'error', 'in_progress', 'ok']);
    assert.deepEqual(Object.keys(email.recent_emails[0]).sort(), ['created_at_millis', 'id', 'status', 'subject']);
    assert.equal(email.recent_emails[0].subject, 'Hello');

    assert.deepEqual(m.payments_overview, {
      subscriptions_by_status: {}, active_subscription_count: 0, total_one_time_purchases: 0,
      daily_subscriptions: m.daily_users.map((d: { date: string }) => ({ date: d.date, activity: 0 })),
      revenue_cents: 0, mrr_cents: 0, total_orders: 0, checkout_conversion_rate: 0,
    });
    assert.equal(m.analytics_overview.visitors, 0);
    assert.equal(m.analytics_overview.top_region, null);
    assert.equal(m.analytics_overview.daily_revenue.length, 30);
    assert.equal(m.live_users, 0);
    assert.deepEqual(m.active_users_by_country, {});
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
