import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys } from '../../test/helpers/core-fixtures-b.ts';

const DAY = 86_400_000;

/**
 * `/internal/metrics` and its sibling routes in upstream's shape, in-process
 * (test/helpers/core-client.ts).
 */
describeWithCore('metrics', (get) => {
  async function keyedProject(config: Record<string, unknown> = {}) {
    const t = get();
    const created = await createCoreProject(t, config);
    // Project keys, not the owner's admin access token: the tests move the clock past its expiry.
    const keys = await createCoreProjectKeys(t, created.admin);
    return {
      t,
      p: {
        server: { projectId: created.projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey },
        client: { projectId: created.projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey },
        admin: { projectId: created.projectId, accessType: 'admin' as const, superSecretAdminKey: keys.superSecretAdminKey },
      },
    };
  }

  it("counts users, sign-ups per day and hour, daily active users, countries and login methods over upstream's 31-day window", async () => {
    const { t, p } = await keyedProject();
    const a = await t.call<any>('users.create', p.server, {
      body: { primary_email: 'a@example.com', country_code: 'CH', password: 'correct horse battery' },
    });
    await t.call<any>('users.create', p.server, { body: { primary_email: 'b@example.com', country_code: 'CH', otp_auth_enabled: true } });
    await t.call<any>('users.create', p.server, { body: { is_anonymous: true } });
    t.clock.advance(DAY);
    const c = await t.call<any>('users.create', p.server, { body: { primary_email: 'c@example.com', country_code: 'DE' } });
    const session = await t.call<any>('sessions.create', p.server, { body: { user_id: a.id } });
    assert.equal(typeof session.access_token, 'string');
    await t.call<any>('sessions.create', p.server, { body: { user_id: c.id, is_impersonation: true } });

    const m = await t.call<any>('metrics.get', p.admin);
    assert.equal(m.total_users, 3);
    assert.equal(m.daily_users.length, 31, 'the 30 days before today and today, as upstream');
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const yesterday = new Date(t.clock.now() - DAY).toISOString().slice(0, 10);
    assert.deepEqual(m.daily_users.at(-1), { date: today, activity: 1 });
    assert.deepEqual(m.daily_users.at(-2), { date: yesterday, activity: 2 });
    assert.equal(m.hourly_users.length, 24);
    assert.match(m.hourly_users.at(-1).date, /^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/);
    assert.equal(m.hourly_users.at(-1).activity, 1);
    assert.deepEqual(
      m.hourly_active_users.map((x: { activity: number }) => x.activity),
      new Array(24).fill(0),
    );
    // Today only a signed in: c was created by the server and only impersonated, which is not activity.
    assert.deepEqual(m.daily_active_users.at(-1), { date: today, activity: 1 });
    assert.deepEqual(m.users_by_country, { CH: 2, DE: 1 });
    assert.equal(m.recently_registered[0].id, c.id);
    assert.equal(m.recently_registered.length, 3);
    assert.ok('risk_scores' in m.recently_registered[0]);
    // Upstream counts held sign-in methods and leaves out those nobody holds.
    assert.deepEqual(m.login_methods, [
      { method: 'otp', count: 1 },
      { method: 'password', count: 1 },
    ]);
    assert.equal(m.live_users, 1, "only a has a session used in the last two minutes (c's is an impersonation)");
    assert.deepEqual(Object.keys(m.active_users_by_country), ['CH']);
    assert.equal(m.active_users_by_country.CH[0].id, a.id);
    assert.deepEqual(Object.keys(m.active_users_by_country.CH[0]).sort(), [
      'display_name',
      'id',
      'last_active_at_millis',
      'primary_email',
      'profile_image_url',
      'signed_up_at_millis',
    ]);

    const withAnon = await t.call<any>('metrics.get', p.admin, { query: { include_anonymous: 'true' } });
    assert.equal(withAnon.total_users, 4);
    const counts = await t.call<any>('metrics.userCounts', p.admin);
    assert.deepEqual(counts, { total_users: 4, anonymous_users: 1 });
  });

  it("answers upstream's overview shape: auth, email, payments and analytics overviews, with zeros where there is no data", async () => {
    // A project SMTP server (unreachable: the email stays queued) so send-email is allowed.
    const { t, p } = await keyedProject({
      email_config: {
        type: 'standard',
        host: '127.0.0.1',
        port: 9,
        username: 'u',
        password: 'p',
        sender_name: 'S',
        sender_email: 'noreply@example.com',
      },
    });
    const a = await t.call<any>('users.create', p.server, { body: { primary_email: 'a@example.com', primary_email_verified: true } });
    const b = await t.call<any>('users.create', p.server, { body: { primary_email: 'b@example.com' } });
    // A verified non-primary email makes b verified too (upstream counts any verified email channel).
    await t.call<any>('contactChannels.create', p.server, {
      body: { user_id: b.id, type: 'email', value: 'b2@example.com', used_for_auth: false, is_verified: true },
    });
    await t.call<any>('users.create', p.server, { body: { primary_email: 'c@example.com' } });
    await t.call<any>('anonymous.signUp', p.client);
    await t.call<any>('teams.create', p.server, { body: { display_name: 'T' } });
    await t.call<any>('sessions.create', p.server, { body: { user_id: a.id } });
    await t.call<any>('emails.sendEmail', p.admin, {
      body: { user_ids: [a.id], html: '<p>Hi</p>', subject: 'Hello', notification_category_name: 'Transactional' },
    });

    const m = await t.call<any>('metrics.get', p.admin);
    assert.deepEqual(Object.keys(m), [
      'total_users',
      'live_users',
      'daily_users',
      'daily_active_users',
      'hourly_users',
      'hourly_active_users',
      'users_by_country',
      'active_users_by_country',
      'recently_registered',
      'recently_active',
      'login_methods',
      'auth_overview',
      'payments_overview',
      'email_overview',
      'analytics_overview',
    ]);
    const auth = m.auth_overview;
    assert.deepEqual(Object.keys(auth), [
      'verified_users',
      'unverified_users',
      'anonymous_users',
      'total_teams',
      'mau',
      'daily_active_users_split',
      'daily_active_teams_split',
      'total_users_filtered',
    ]);
    assert.deepEqual(
      [auth.verified_users, auth.unverified_users, auth.anonymous_users, auth.total_teams, auth.mau, auth.total_users_filtered],
      [2, 1, 1, 1, 1, 3],
    );
    assert.deepEqual(Object.keys(auth.daily_active_users_split), ['total', 'new', 'retained', 'reactivated']);
    assert.equal(auth.daily_active_users_split.total.length, 31);
    assert.deepEqual(auth.daily_active_users_split.total.at(-1), m.daily_active_users.at(-1));
    assert.equal(auth.daily_active_teams_split.total.at(-1).activity, 0);

    const email = m.email_overview;
    assert.deepEqual(Object.keys(email), [
      'emails_by_status',
      'total_emails',
      'daily_emails',
      'daily_emails_by_status',
      'emails_sent',
      'recent_emails',
      'deliverability_status',
      'deliverability_rate',
      'bounce_rate',
      'click_rate',
    ]);
    assert.equal(email.total_emails, 1);
    assert.deepEqual(Object.keys(email.emails_by_status), ['in-progress'], "upstream's simple statuses, only those present");
    assert.equal(email.daily_emails.length, 31);
    assert.equal(email.daily_emails.at(-1).activity, 1);
    assert.deepEqual(email.daily_emails_by_status.at(-1), { date: email.daily_emails.at(-1).date, ok: 0, error: 0, in_progress: 1 });
    assert.deepEqual(Object.keys(email.recent_emails[0]), ['id', 'status', 'subject', 'created_at_millis']);
    assert.equal(email.recent_emails[0].subject, 'Hello');
    assert.equal(email.recent_emails[0].status, 'QUEUED', "upstream's outbox status names");
    assert.deepEqual(email.deliverability_status, { delivered: 0, bounced: 0, error: 0, in_progress: 1 });
    assert.deepEqual([email.emails_sent, email.deliverability_rate, email.bounce_rate, email.click_rate], [0, 0, 0, 0]);

    const dates = m.daily_users.map((d: { date: string }) => d.date);
    assert.deepEqual(m.payments_overview, {
      subscriptions_by_status: {},
      active_subscription_count: 0,
      total_one_time_purchases: 0,
      daily_subscriptions: dates.map((date: string) => ({ date, activity: 0 })),
      revenue_cents: 0,
      mrr_cents: 0,
      total_orders: 0,
      checkout_conversion_rate: 0,
    });
    const analytics = m.analytics_overview;
    assert.deepEqual(
      analytics.daily_revenue,
      dates.map((date: string) => ({ date, new_cents: 0, refund_cents: 0 })),
    );
    assert.deepEqual([analytics.visitors, analytics.top_region, analytics.daily_page_views, analytics.top_browsers], [0, null, [], []]);
    // The anonymous user signed up today: upstream's anonymous-visitor fallback.
    assert.equal(analytics.anonymous_visitors_fallback, 1);
    assert.equal(analytics.daily_anonymous_visitors_fallback.at(-1).activity, 1);
    assert.deepEqual(m.active_users_by_country, {});
  });

  it('splits daily active users into new, retained and reactivated as upstream', async () => {
    const { t, p } = await keyedProject();
    const steady = (await t.call<any>('users.create', p.server, { body: {} })).id as string;
    const returning = (await t.call<any>('users.create', p.server, { body: {} })).id as string;
    const signIn = (id: string) => t.call<any>('sessions.create', p.server, { body: { user_id: id } });
    await signIn(steady);
    await signIn(returning);
    t.clock.advance(DAY);
    await signIn(steady);
    t.clock.advance(2 * DAY);
    await signIn(steady);
    await signIn(returning);
    t.clock.advance(DAY);
    await signIn(steady);
    await signIn(returning);
    const fresh = (await t.call<any>('users.create', p.server, { body: {} })).id as string;
    await signIn(fresh);

    const split = (await t.call<any>('metrics.get', p.admin)).auth_overview.daily_active_users_split;
    const last = (k: string, back: number) => split[k].at(-1 - back).activity;
    // Today: steady and returning were active yesterday too (retained); fresh is new.
    assert.deepEqual([last('total', 0), last('new', 0), last('retained', 0), last('reactivated', 0)], [3, 1, 2, 0]);
    // Yesterday: both came back after a gap (reactivated).
    assert.deepEqual([last('total', 1), last('new', 1), last('retained', 1), last('reactivated', 1)], [2, 0, 0, 2]);
    // Four days ago: both new.
    assert.deepEqual([last('total', 4), last('new', 4)], [2, 2]);
    assert.equal(last('retained', 3), 1);

    const activity = await t.call<any>('metrics.userActivity', p.admin, { query: { user_id: returning } });
    assert.equal(activity.data_points.length, 352);
    assert.deepEqual(
      activity.data_points.slice(-5).map((x: { activity: number }) => x.activity),
      [1, 0, 0, 1, 1],
    );
    assert.equal(activity.data_points.at(-1).date, new Date(t.clock.now()).toISOString().slice(0, 10));
  });

  it('keeps projects apart and is admin only', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const q = await createCoreProject(t);
    const user = await t.call<any>('users.create', p.server, { body: {} });
    await t.call<any>('sessions.create', p.server, { body: { user_id: user.id } });
    assert.equal((await t.call<any>('metrics.get', q.admin)).total_users, 0);
    assert.deepEqual(await t.call<any>('metrics.userCounts', q.admin), { total_users: 0, anonymous_users: 0 });
    const other = await t.call<any>('metrics.userActivity', q.admin, { query: { user_id: user.id } });
    assert.equal(other.data_points.at(-1).activity, 0);
    for (const [operationId, query] of [
      ['metrics.get', {}],
      ['metrics.userCounts', {}],
      ['metrics.userActivity', { user_id: user.id }],
    ] as const) {
      assert.equal((await t.refuses(operationId, p.server, { query }, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
    }
    assert.equal((await t.refuses('metrics.get', p.admin, { query: { include_anonymous: 'maybe' } }, 'SCHEMA_ERROR')).status, 400);
    assert.equal((await t.refuses('metrics.userActivity', p.admin, {}, 'SCHEMA_ERROR')).status, 400);
    assert.equal(
      (await t.call<any>('metrics.get', p.admin, { query: { filter_country_code: 'CH', filter_since: '2026-01-01T00:00:00Z' } }))
        .total_users,
      1,
    );
  });
});
