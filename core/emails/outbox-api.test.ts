import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCoreProject, createCoreUser, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { refusal, refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import { emailWorkerIdle } from './index.ts';

/** The email outbox operations, in-process (test/helpers/core-client.ts). */
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

type Outbox = { id: string; status: string; [key: string]: any };
type Page = { is_paginated: boolean; pagination: { next_cursor: string | null }; items: Outbox[] };

describeWithCore('email outbox API', (get) => {
  async function userWithEmail(t: TestCore, p: { server: Credentials; client: Credentials }, email: string): Promise<string> {
    return (await createCoreUser(t, p, { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true })).id;
  }
  const list = (t: TestCore, c: Credentials, query: Record<string, string> = {}) => t.call<Page>('emails.listOutbox', c, { query });

  it("lists the outbox newest first in upstream's shape, pages with a cursor, and refuses bad limits", async () => {
    const t = get();
    const p = await createCoreProject(t, { magic_link_enabled: true });
    const { server: srv, admin } = p;
    const userId = await userWithEmail(t, p, 'reader@example.com');
    for (let i = 0; i < 3; i++) {
      await t.call('authOtp.sendSignInCode', srv, {
        body: { email: 'reader@example.com', callback_url: 'http://localhost:3000/handler/magic-link-callback' },
      });
      t.clock.advance(10);
    }
    const all = await list(t, admin);
    assert.equal(all.is_paginated, true);
    assert.deepEqual(all.pagination, { next_cursor: null });
    assert.equal(all.items.length, 3);
    const [newest] = all.items as [Outbox];
    assert.ok(all.items[0]!.created_at_millis > all.items[2]!.created_at_millis, 'newest first');
    // No email server configured: the built-in outbox keeps it (upstream's "skipped", Gatehouse's reason).
    assert.equal(newest.status, 'skipped');
    assert.equal(newest.simple_status, 'ok');
    assert.equal(newest.skipped_reason, 'NO_EMAIL_SERVER_CONFIGURED');
    assert.equal(newest.has_rendered, true);
    assert.equal(newest.has_delivered, false);
    assert.match(newest.subject, /sign-in code|Sign in/i);
    assert.deepEqual(newest.to, { type: 'user-custom-emails', user_id: userId, emails: ['reader@example.com'] });

    const first = await list(t, srv, { limit: '2' });
    assert.deepEqual(
      first.items.map((e) => e.id),
      all.items.slice(0, 2).map((e) => e.id),
    );
    assert.equal(first.pagination.next_cursor, all.items[2]!.id);
    const second = await list(t, srv, { limit: '2', cursor: first.pagination.next_cursor! });
    assert.deepEqual(
      second.items.map((e) => e.id),
      [all.items[2]!.id],
    );
    assert.equal(second.pagination.next_cursor, null);
    assert.equal((await list(t, srv, { simple_status: 'error' })).items.length, 0);
    assert.equal((await list(t, srv, { status: 'skipped' })).items.length, 3);

    await refusesWithStatus(t, 'emails.listOutbox', srv, { query: { limit: '0' } }, 'bad-request', 'Invalid limit parameter');
    await refusesWithStatus(t, 'emails.listOutbox', srv, { query: { limit: '101' } }, 'bad-request', 'Limit cannot exceed 100');

    assert.deepEqual(await t.call('emails.getOutbox', srv, { params: { id: newest.id } }), newest);
    await refusesWithStatus(t, 'emails.getOutbox', srv, { params: { id: MISSING } }, 'not-found', 'Email not found');
    const other = await createCoreProject(t);
    // Another project never sees it.
    await refusesWithStatus(t, 'emails.getOutbox', other.admin, { params: { id: newest.id } }, 'not-found', 'Email not found');
    assert.equal((await list(t, other.admin)).items.length, 0);
    assert.equal(await refusal(t, 'emails.listOutbox', p.client), 'INSUFFICIENT_ACCESS_TYPE');

    const notEditable = await t.refuses(
      'emails.updateOutbox',
      srv,
      { params: { id: newest.id }, body: { is_paused: true } },
      'EMAIL_NOT_EDITABLE',
    );
    assert.equal(notEditable.status, 400);
  });

  it('pauses, resumes and cancels a queued email, and refuses to edit it once cancelled', async () => {
    const t = get();
    const p = await createCoreProject(t, { ...DEAD_SMTP, magic_link_enabled: true });
    const { server: srv } = p;
    await userWithEmail(t, p, 'queued@example.com');
    await t.call('authOtp.sendSignInCode', srv, {
      body: { email: 'queued@example.com', callback_url: 'http://localhost:3000/handler/magic-link-callback' },
    });
    await emailWorkerIdle(t.core.runtime);
    const [queued] = (await list(t, srv)).items as [Outbox];
    assert.equal(queued.status, 'queued');
    assert.equal(queued.simple_status, 'in-progress');
    assert.equal(queued.send_retries, 1, 'the first attempt failed');
    assert.equal(typeof queued.next_send_retry_at_millis, 'number');
    assert.match(queued.send_attempt_errors[0].external_message, /.+/);

    const update = (body: Record<string, unknown>) => t.call<Outbox>('emails.updateOutbox', srv, { params: { id: queued.id }, body });
    const paused = await update({ is_paused: true });
    assert.equal(paused.status, 'paused');
    assert.equal(paused.is_paused, true);
    assert.equal((await update({ is_paused: false })).status, 'queued');
    const later = t.clock.now() + 3_600_000;
    assert.equal((await update({ scheduled_at_millis: later })).scheduled_at_millis, later);

    const cancelled = await update({ cancel: true });
    assert.equal(cancelled.status, 'skipped');
    assert.equal(cancelled.skipped_reason, 'MANUALLY_CANCELLED');
    const again = await t.refuses(
      'emails.updateOutbox',
      srv,
      { params: { id: queued.id }, body: { is_paused: true } },
      'EMAIL_NOT_EDITABLE',
    );
    assert.equal(again.status, 400);
    assert.deepEqual(again.details, { email_id: queued.id, status: 'SKIPPED' });
    await t.refuses('emails.updateOutbox', srv, { params: { id: queued.id }, body: { tsx_source: 'x' } }, 'SCHEMA_ERROR');
  });

  it("answers delivery-info in upstream's shape with the project's sent counts", async () => {
    const t = get();
    const { server: srv } = await createCoreProject(t);
    const info = await t.call<{ stats: Record<string, unknown>; capacity: Record<string, unknown> }>('emails.deliveryInfo', srv);
    assert.deepEqual(Object.keys(info.stats), ['hour', 'day', 'week', 'month']);
    assert.deepEqual(info.stats.hour, { sent: 0, bounced: 0, marked_as_spam: 0 });
    assert.deepEqual(Object.keys(info.capacity).sort(), [
      'boost_expires_at',
      'boost_multiplier',
      'is_boost_active',
      'penalty_factor',
      'rate_per_second',
    ]);
  });
});
