import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';
import { startSmtpReceiver } from '../helpers/smtp.ts';

// Upstream's e2e: emails/delivery-info.test.ts (capacity-boost, delivery-info snapshots),
// internal/email-queue-step.test.ts, internal/failed-emails-digest.test.ts (unauthorized requests),
// health/email-monitor.test.ts, send-email snapshots (`{"results": [{"user_id": …}]}`) and
// emails/outbox-api.test.ts (`to: {type: "user-primary-email", user_id}`). The test server runs in
// the `test` environment: upstream's development secrets and capacity apply.

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const EMPTY_WINDOW = { sent: 0, bounced: 0, marked_as_spam: 0 };

describeWithServer('email routes as upstream answers them', (get) => {
  it("answers delivery-info of a new project with upstream's exact body", async () => {
    const { server: srv } = await createProject(get());
    const res = await api(get(), 'GET', '/emails/delivery-info', srv);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      capacity: {
        boost_expires_at: null,
        boost_multiplier: 1,
        is_boost_active: false,
        penalty_factor: 1,
        rate_per_second: 27.77777777777778,
      },
      stats: { day: EMPTY_WINDOW, hour: EMPTY_WINDOW, month: EMPTY_WINDOW, week: EMPTY_WINDOW },
    });
  });

  it('activates the capacity boost once (4x), refuses a second one with 409, and needs server access', async () => {
    const { server: srv, client } = await createProject(get());
    const before = await api(get(), 'GET', '/emails/delivery-info', srv);
    const boost = await api(get(), 'POST', '/emails/capacity-boost', srv, {});
    assert.equal(boost.status, 200, boost.text);
    assert.deepEqual(Object.keys(boost.body), ['expires_at']);
    const expires = Date.parse(boost.body.expires_at);
    assert.ok(Math.abs(expires - Date.now() - 4 * 3_600_000) < 60_000, boost.body.expires_at);
    const after = await api(get(), 'GET', '/emails/delivery-info', srv);
    assert.equal(after.body.capacity.is_boost_active, true);
    assert.equal(after.body.capacity.boost_multiplier, 4);
    assert.equal(after.body.capacity.boost_expires_at, boost.body.expires_at);
    assert.equal(after.body.capacity.rate_per_second, before.body.capacity.rate_per_second * 4);
    const again = await api(get(), 'POST', '/emails/capacity-boost', srv, {});
    assertKnownError(again, 'EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE', 409);
    assert.deepEqual(again.body.details, { expires_at: boost.body.expires_at });
    assert.equal(again.body.error, `Email capacity boost is already active until ${boost.body.expires_at}.`);
    assert.equal((await api(get(), 'POST', '/emails/capacity-boost', client, {})).status, 401);
  });

  it('send-email answers {user_id} per user, and the outbox names the recipient `user-primary-email`', async () => {
    const { server: srv } = await createProject(get(), {
      email_config: {
        type: 'standard',
        host: '127.0.0.1',
        port: smtp.port,
        username: 'u',
        password: 'p',
        sender_name: 'S',
        sender_email: 'noreply@example.com',
      },
    });
    const address = `primary-${Date.now()}@example.com`;
    const user = await api(get(), 'POST', '/users', srv, { primary_email: address, primary_email_verified: true });
    const sent = await api(get(), 'POST', '/emails/send-email', srv, { user_ids: [user.body.id], html: 'Test email', subject: 'Test' });
    assert.equal(sent.status, 200, sent.text);
    assert.deepEqual(sent.body, { results: [{ user_id: user.body.id }] });
    await smtp.waitFor(address);
    const outbox = await api(get(), 'GET', '/emails/outbox', srv);
    const [entry] = outbox.body.items;
    assert.deepEqual(entry.to, { type: 'user-primary-email', user_id: user.body.id });
    assert.equal(entry.is_transactional, true);
    assert.equal(entry.is_high_priority, false);
    assert.equal(entry.notification_category_id, '7bb82d33-2f54-4a3d-9d23-82739e0d66ef');
    assert.equal(entry.has_rendered, true);
  });

  it("guards the cron routes with the bearer secret: upstream's SCHEMA_ERROR, 401 text and bodies", async () => {
    const url = get().url;
    const none = await fetch(`${url}/api/v1/internal/email-queue-step`);
    assert.equal(none.status, 400);
    assert.equal(none.headers.get('x-stack-known-error'), 'SCHEMA_ERROR');
    const message = 'Request validation failed on GET /api/v1/internal/email-queue-step:\n  - headers.authorization must be defined';
    assert.deepEqual(await none.json(), { code: 'SCHEMA_ERROR', details: { message }, error: message });
    for (const authorization of ['Bearer invalid_secret', 'InvalidFormat']) {
      const wrong = await fetch(`${url}/api/v1/internal/email-queue-step`, { headers: { authorization } });
      assert.equal(wrong.status, 401);
      assert.equal(await wrong.text(), 'Unauthorized');
      const digest = await fetch(`${url}/api/v1/internal/failed-emails-digest`, { method: 'POST', headers: { authorization } });
      assert.equal(digest.status, 401);
      assert.equal(await digest.text(), 'Unauthorized');
    }
    assert.equal((await fetch(`${url}/api/v1/internal/failed-emails-digest`, { method: 'POST' })).status, 400);
    const step = await fetch(`${url}/api/v1/internal/email-queue-step?only_one_step=true`, {
      headers: { authorization: 'Bearer mock_cron_secret' },
    });
    assert.equal(step.status, 200);
    assert.deepEqual(await step.json(), { ok: true });
    const digest = await fetch(`${url}/api/v1/internal/failed-emails-digest?dry_run=true`, {
      method: 'POST',
      headers: { authorization: 'Bearer mock_cron_secret' },
    });
    assert.equal(digest.status, 200);
    assert.deepEqual(await digest.json(), { success: true, failed_emails_by_tenancy: [] });
  });

  it('answers the email health monitor at /health/email with the monitor secret only', async () => {
    const url = get().url;
    const ok = await fetch(`${url}/health/email`, {
      method: 'POST',
      headers: { authorization: 'Bearer this-secret-token-is-for-local-development-only' },
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { success: true });
    const wrong = await fetch(`${url}/health/email`, { method: 'POST', headers: { authorization: 'Bearer invalid-token' } });
    assert.equal(wrong.status, 401);
    assert.equal(await wrong.text(), 'Unauthorized');
  });
});
