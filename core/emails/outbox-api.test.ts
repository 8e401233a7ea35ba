import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { emailWorkerIdle } from './index.ts';

/** A project SMTP server nobody listens on: every attempt fails and the email stays queued for a retry. */
const DEAD_SMTP = {
  email_config: {
    type: 'standard',
    host: '127.0.0.1',
    port: 9,
    username: 'u',
    password: 'p',
    sender_name: 'S',
    sender_email: 'noreply@example.com',
  },
};
const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

describeWithServer('email outbox API', (get) => {
  async function userWithEmail(srv: object, email: string): Promise<string> {
    const server = get();
    const res = await api(server, 'POST', '/users', srv, {
      primary_email: email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  }

  it("lists the outbox newest first in upstream's shape, pages with a cursor, and refuses bad limits", async () => {
    const server = get();
    const { server: srv, admin } = await createProject(server, { magic_link_enabled: true });
    const userId = await userWithEmail(srv, 'reader@example.com');
    for (const subject of ['First', 'Second', 'Third']) {
      const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', srv, {
        email: 'reader@example.com',
        callback_url: 'http://localhost:3000/handler/magic-link-callback',
      });
      assert.equal(sent.status, 200, `${subject}: ${sent.text}`);
      server.clock.advance(10);
    }
    const all = await api(server, 'GET', '/emails/outbox', admin);
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body.is_paginated, true);
    assert.deepEqual(all.body.pagination, { next_cursor: null });
    assert.equal(all.body.items.length, 3);
    const [newest] = all.body.items;
    assert.ok(all.body.items[0].created_at_millis > all.body.items[2].created_at_millis, 'newest first');
    // No email server configured: the built-in outbox keeps it (upstream's "skipped", Gatehouse's reason).
    assert.equal(newest.status, 'skipped');
    assert.equal(newest.simple_status, 'ok');
    assert.equal(newest.skipped_reason, 'NO_EMAIL_SERVER_CONFIGURED');
    assert.equal(newest.has_rendered, true);
    assert.equal(newest.has_delivered, false);
    assert.match(newest.subject, /sign-in code|Sign in/i);
    assert.deepEqual(newest.to, { type: 'user-custom-emails', user_id: userId, emails: ['reader@example.com'] });

    const first = await api(server, 'GET', '/emails/outbox?limit=2', srv);
    assert.deepEqual(
      first.body.items.map((e: { id: string }) => e.id),
      all.body.items.slice(0, 2).map((e: { id: string }) => e.id),
    );
    assert.equal(first.body.pagination.next_cursor, all.body.items[2].id);
    const second = await api(server, 'GET', `/emails/outbox?limit=2&cursor=${first.body.pagination.next_cursor}`, srv);
    assert.deepEqual(
      second.body.items.map((e: { id: string }) => e.id),
      [all.body.items[2].id],
    );
    assert.equal(second.body.pagination.next_cursor, null);
    assert.equal((await api(server, 'GET', '/emails/outbox?simple_status=error', srv)).body.items.length, 0);
    assert.equal((await api(server, 'GET', '/emails/outbox?status=skipped', srv)).body.items.length, 3);

    const zero = await api(server, 'GET', '/emails/outbox?limit=0', srv);
    assert.equal(zero.status, 400);
    assert.equal(zero.text, 'Invalid limit parameter');
    const big = await api(server, 'GET', '/emails/outbox?limit=101', srv);
    assert.equal(big.status, 400);
    assert.equal(big.text, 'Limit cannot exceed 100');

    const one = await api(server, 'GET', `/emails/outbox/${newest.id}`, srv);
    assert.deepEqual(one.body, newest);
    const missing = await api(server, 'GET', `/emails/outbox/${MISSING}`, srv);
    assert.equal(missing.status, 404);
    assert.equal(missing.text, 'Email not found');
    const other = await createProject(server);
    assert.equal((await api(server, 'GET', `/emails/outbox/${newest.id}`, other.admin)).status, 404, 'another project never sees it');
    assert.equal((await api(server, 'GET', '/emails/outbox', other.admin)).body.items.length, 0);
    assert.equal((await api(server, 'GET', '/emails/outbox', { ...srv, accessType: 'client' })).status, 401);

    assertKnownError(await api(server, 'PATCH', `/emails/outbox/${newest.id}`, srv, { is_paused: true }), 'EMAIL_NOT_EDITABLE', 400);
  });

  it('pauses, resumes and cancels a queued email, and refuses to edit it once cancelled', async () => {
    const server = get();
    const { server: srv } = await createProject(server, { ...DEAD_SMTP, magic_link_enabled: true });
    await userWithEmail(srv, 'queued@example.com');
    const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', srv, {
      email: 'queued@example.com',
      callback_url: 'http://localhost:3000/handler/magic-link-callback',
    });
    assert.equal(sent.status, 200, sent.text);
    await emailWorkerIdle(server.gatehouse.core.runtime);
    const [queued] = (await api(server, 'GET', '/emails/outbox', srv)).body.items;
    assert.equal(queued.status, 'queued');
    assert.equal(queued.simple_status, 'in-progress');
    assert.equal(queued.send_retries, 1, 'the first attempt failed');
    assert.equal(typeof queued.next_send_retry_at_millis, 'number');
    assert.match(queued.send_attempt_errors[0].external_message, /.+/);

    const paused = await api(server, 'PATCH', `/emails/outbox/${queued.id}`, srv, { is_paused: true });
    assert.equal(paused.status, 200, paused.text);
    assert.equal(paused.body.status, 'paused');
    assert.equal(paused.body.is_paused, true);
    const resumed = await api(server, 'PATCH', `/emails/outbox/${queued.id}`, srv, { is_paused: false });
    assert.equal(resumed.body.status, 'queued');
    const later = server.clock.now() + 3_600_000;
    const rescheduled = await api(server, 'PATCH', `/emails/outbox/${queued.id}`, srv, { scheduled_at_millis: later });
    assert.equal(rescheduled.body.scheduled_at_millis, later);

    const cancelled = await api(server, 'PATCH', `/emails/outbox/${queued.id}`, srv, { cancel: true });
    assert.equal(cancelled.body.status, 'skipped');
    assert.equal(cancelled.body.skipped_reason, 'MANUALLY_CANCELLED');
    const again = await api(server, 'PATCH', `/emails/outbox/${queued.id}`, srv, { is_paused: true });
    assertKnownError(again, 'EMAIL_NOT_EDITABLE', 400);
    assert.deepEqual(again.body.details, { email_id: queued.id, status: 'SKIPPED' });
    assertKnownError(await api(server, 'PATCH', `/emails/outbox/${queued.id}`, srv, { tsx_source: 'x' }), 'SCHEMA_ERROR', 400);
  });

  it("answers delivery-info in upstream's shape with the project's sent counts", async () => {
    const server = get();
    const { server: srv } = await createProject(server);
    const info = await api(server, 'GET', '/emails/delivery-info', srv);
    assert.equal(info.status, 200, info.text);
    assert.deepEqual(Object.keys(info.body.stats), ['hour', 'day', 'week', 'month']);
    assert.deepEqual(info.body.stats.hour, { sent: 0, bounced: 0, marked_as_spam: 0 });
    assert.deepEqual(Object.keys(info.body.capacity).sort(), [
      'boost_expires_at',
      'boost_multiplier',
      'is_boost_active',
      'penalty_factor',
      'rate_per_second',
    ]);
  });
});
