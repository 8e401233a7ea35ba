import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, internal } from '../../test/helpers/api.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/helpers/webhook-receiver.ts';
import { createSystemContext } from '../operations/execute.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { RETRY_SCHEDULE_MS, webhookWorkerIdle } from './index.ts';

const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

describeWithServer('webhooks', (get) => {
  let receiver: WebhookReceiver;
  before(async () => { receiver = await startWebhookReceiver(); });
  after(async () => { await receiver.close(); });

  /** A project with one endpoint at the receiver; `received` is reset. */
  async function projectWithEndpoint(body: Record<string, unknown> = {}, to: WebhookReceiver = receiver) {
    const server = get();
    await webhookWorkerIdle(server.gatehouse.core.runtime);
    receiver.received.length = 0;
    receiver.respondWith.length = 0;
    const p = await createProject(server);
    const created = await api(server, 'POST', '/internal/webhook-endpoints', p.admin, { url: to.url, description: 'app sync', ...body });
    assert.equal(created.status, 201, created.text);
    return { p, endpoint: created.body };
  }

  it('delivers user, team, membership and permission events once each, signed per Standard Webhooks, with Stack\'s payloads', async () => {
    const server = get();
    const { p, endpoint } = await projectWithEndpoint();
    assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/=]{32}$/);
    const hook = new Webhook(endpoint.secret);

    const alice = await api(server, 'POST', '/users', p.server, { primary_email: 'alice@example.com', display_name: 'Alice' });
    const bob = await api(server, 'POST', '/users', p.server, { display_name: 'Bob' });
    await api(server, 'PATCH', `/users/${alice.body.id}`, p.server, { display_name: 'Alice B.' });
    const team = await api(server, 'POST', '/teams', p.server, { display_name: 'Alpha', creator_user_id: alice.body.id });
    assert.equal(team.status, 201, team.text);
    assert.equal((await api(server, 'POST', `/team-memberships/${team.body.id}/${bob.body.id}`, p.server)).status, 201);
    const perm = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'read_reports' });
    assert.equal(perm.status, 201, perm.text);
    assert.equal((await api(server, 'POST', `/team-permissions/${team.body.id}/${bob.body.id}/read_reports`, p.server)).status, 201);
    assert.equal((await api(server, 'DELETE', `/users/${bob.body.id}`, p.server)).status, 200);

    const got = await receiver.waitFor(8);
    await webhookWorkerIdle(server.gatehouse.core.runtime);
    assert.deepEqual(got.map((r) => r.payload.type).sort(), [
      'team.created', 'team_membership.created', 'team_membership.created', 'team_permission.created',
      'user.created', 'user.created', 'user.deleted', 'user.updated',
    ]);
    assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, got.length, 'every message has its own id');

    for (const r of got) {
      // Throws when the signature does not match the secret, the id or the timestamp.
      const verified = hook.verify(r.body, { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) });
      assert.deepEqual(verified, r.payload);
      assert.equal(r.headers['svix-id'], r.headers['webhook-id']);
      assert.equal(r.headers['svix-signature'], r.headers['webhook-signature']);
      assert.match(String(r.headers['webhook-id']), /^msg_[0-9a-z]{26}$/);
    }
    const byType = (t: string) => got.filter((r) => r.payload.type === t).map((r) => r.payload.data);
    const aliceCreated = byType('user.created').find((u) => u.id === alice.body.id);
    assert.equal(aliceCreated.primary_email, 'alice@example.com');
    assert.equal(aliceCreated.display_name, 'Alice');
    assert.ok('server_metadata' in aliceCreated, 'the server-side user object');
    assert.equal(byType('user.updated')[0].display_name, 'Alice B.');
    assert.deepEqual(byType('team.created')[0].display_name, 'Alpha');
    assert.ok('server_metadata' in byType('team.created')[0]);
    assert.deepEqual(byType('team_membership.created').map((m) => m.user_id).sort(), [alice.body.id, bob.body.id].sort());
    assert.deepEqual(byType('team_permission.created'), [{ id: 'read_reports', user_id: bob.body.id, team_id: team.body.id }]);
    assert.deepEqual(byType('user.deleted'), [{ id: bob.body.id, teams: [{ id: team.body.id }] }]);
  });

  it('retries a failed delivery with the same message id on upstream\'s schedule, and the log records both attempts', async () => {
    const server = get();
    const { p, endpoint } = await projectWithEndpoint({ event_types: ['user.created'] });
    receiver.respondWith.push(500);
    const user = await api(server, 'POST', '/users', p.server, { display_name: 'Retry Me' });
    const [first] = await receiver.waitFor(1);
    assert.equal(first!.answered, 500);
    await webhookWorkerIdle(server.gatehouse.core.runtime);

    const pending = await api(server, 'GET', `/internal/webhook-endpoints/${endpoint.id}/deliveries`, p.admin);
    assert.equal(pending.body.items[0].status, 'pending');
    assert.equal(pending.body.items[0].attempt_count, 1);
    assert.equal(pending.body.items[0].next_attempt_at_millis, pending.body.items[0].attempts[0].attempted_at_millis + RETRY_SCHEDULE_MS[1]);

    server.clock.advance(RETRY_SCHEDULE_MS[1]);
    const [, second] = await receiver.waitFor(2);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    assert.equal(second!.body, first!.body);
    assert.equal(second!.payload.data.id, user.body.id);
    await webhookWorkerIdle(server.gatehouse.core.runtime);

    const log = await api(server, 'GET', `/internal/webhook-endpoints/${endpoint.id}/deliveries`, p.admin);
    const [entry] = log.body.items;
    assert.equal(entry.message_id, first!.headers['webhook-id']);
    assert.equal(entry.event_type, 'user.created');
    assert.equal(entry.status, 'succeeded');
    assert.equal(entry.next_attempt_at_millis, null);
    assert.deepEqual(entry.attempts.map((a: { status_code: number }) => a.status_code), [500, 200]);
    assert.equal(entry.attempts[0].response_excerpt, 'receiver says no');
    assert.equal(receiver.received.length, 2, 'no third attempt');
  });

  it('sends only subscribed event types', async () => {
    const server = get();
    const { p } = await projectWithEndpoint({ event_types: ['team.created'] });
    await api(server, 'POST', '/users', p.server, { display_name: 'Not sent' });
    await api(server, 'POST', '/teams', p.server, { display_name: 'Sent' });
    const got = await receiver.waitFor(1);
    await webhookWorkerIdle(server.gatehouse.core.runtime);
    assert.deepEqual(receiver.received.map((r) => r.payload.type), ['team.created']);
    assert.equal(got[0]!.payload.data.display_name, 'Sent');
  });

  it('writes no event for a change that rolls back, and one for a change that commits', async () => {
    const server = get();
    const { p } = await projectWithEndpoint();
    const runtime = server.gatehouse.core.runtime;
    const ctx = createSystemContext(runtime);
    await assert.rejects(ctx.transaction(async (tx) => {
      await emitWebhookEvent(tx, p.projectId, 'team.deleted', { id: MISSING });
      throw new Error('the change failed');
    }), /the change failed/);
    await ctx.transaction((tx) => emitWebhookEvent(tx, p.projectId, 'team.deleted', { id: 'committed' }));
    await ctx.flush();
    const messages = await runtime.db.selectFrom('webhook_messages').select(['event_type', 'payload']).where('project_id', '=', p.projectId).execute();
    assert.deepEqual(messages.map((m) => JSON.parse(m.payload).data.id), ['committed']);
  });

  it('shows the secret only on create and rotation, and signs with the new one after rotating', async () => {
    const server = get();
    const { p, endpoint } = await projectWithEndpoint({ event_types: ['team.created'] });
    const listed = await api(server, 'GET', '/internal/webhook-endpoints', p.admin);
    assert.deepEqual(listed.body.items.map((e: { id: string }) => e.id), [endpoint.id]);
    assert.equal('secret' in listed.body.items[0], false);
    assert.equal('secret' in (await api(server, 'GET', `/internal/webhook-endpoints/${endpoint.id}`, p.admin)).body, false);
    const rotated = await api(server, 'POST', `/internal/webhook-endpoints/${endpoint.id}/rotate-secret`, p.admin);
    assert.notEqual(rotated.body.secret, endpoint.secret);
    await api(server, 'POST', '/teams', p.server, { display_name: 'After rotation' });
    const [r] = await receiver.waitFor(1);
    const headers = { 'webhook-id': String(r!.headers['webhook-id']), 'webhook-timestamp': String(r!.headers['webhook-timestamp']), 'webhook-signature': String(r!.headers['webhook-signature']) };
    assert.throws(() => new Webhook(endpoint.secret).verify(r!.body, headers));
    assert.deepEqual(new Webhook(rotated.body.secret).verify(r!.body, headers), r!.payload);
  });

  it('answers send-test-webhook as upstream: success after a 2xx, a message on failure or a missing endpoint', async () => {
    const server = get();
    const { p, endpoint } = await projectWithEndpoint();
    const ok = await api(server, 'POST', '/internal/send-test-webhook', p.admin, { endpoint_id: endpoint.id });
    assert.deepEqual(ok.body, { success: true });
    assert.equal(receiver.received.at(-1)!.payload.type, 'stack.test');
    assert.equal(receiver.received.at(-1)!.payload.data.endpointUrl, receiver.url);
    receiver.respondWith.push(500);
    const failed = await api(server, 'POST', '/internal/send-test-webhook', p.admin, { endpoint_id: endpoint.id });
    assert.deepEqual(failed.body, { success: false, error_message: 'Webhook not delivered. Make sure the endpoint is configured correctly.' });
    const missing = await api(server, 'POST', '/internal/send-test-webhook', p.admin, { endpoint_id: MISSING });
    assert.deepEqual(missing.body, { success: false, error_message: 'Endpoint not found. Make sure it still exists.' });
    const svix = await api(server, 'POST', '/webhooks/svix-token', p.admin, {});
    assert.equal(svix.status, 201);
    assert.deepEqual(svix.body, { token: '' });
  });

  it('keeps endpoints per project, refuses non-http URLs, and needs admin access', async () => {
    const server = get();
    const { endpoint } = await projectWithEndpoint();
    const other = await createProject(server);
    assertKnownError(await api(server, 'GET', `/internal/webhook-endpoints/${endpoint.id}`, other.admin), 'WEBHOOK_ENDPOINT_NOT_FOUND', 404);
    assertKnownError(await api(server, 'DELETE', `/internal/webhook-endpoints/${endpoint.id}`, other.admin), 'WEBHOOK_ENDPOINT_NOT_FOUND', 404);
    assert.deepEqual((await api(server, 'GET', '/internal/webhook-endpoints', other.admin)).body.items, []);
    const ftp = await api(server, 'POST', '/internal/webhook-endpoints', other.admin, { url: 'ftp://example.com/hook' });
    assertKnownError(ftp, 'SCHEMA_ERROR', 400);
    assert.match(ftp.body.error, /url must use http or https/);
    assertKnownError(await api(server, 'POST', '/internal/webhook-endpoints', other.admin, { url: 'https://example.com', event_types: ['user.exploded'] }), 'SCHEMA_ERROR', 400);
    const client = await api(server, 'GET', '/internal/webhook-endpoints', other.client);
    assert.equal(client.status, 401);
  });
  // Last: it moves the injected clock through the whole retry schedule.
  it('disables an endpoint whose every attempt failed, tells the owners by email, and retries from the log once it is back on', async () => {
    const server = get();
    // Its own receiver: earlier tests' failed messages also come due as the clock moves.
    const receiver = await startWebhookReceiver();
    const { p, endpoint } = await projectWithEndpoint({ event_types: ['user.created'] }, receiver);
    await api(server, 'PATCH', `/users/${p.owner.id}`, internal.server, { primary_email: 'owner@example.com' });
    receiver.respondWith.push(...RETRY_SCHEDULE_MS.map(() => 503));
    await api(server, 'POST', '/users', p.server, { display_name: 'Never arrives' });
    const start = server.clock.now();
    for (let n = 1; n <= RETRY_SCHEDULE_MS.length; n++) {
      await receiver.waitFor(n);
      await webhookWorkerIdle(server.gatehouse.core.runtime);
      if (n < RETRY_SCHEDULE_MS.length) server.clock.advance(RETRY_SCHEDULE_MS[n]!);
    }
    // Back to the start (17.6 h later the owner's admin token has expired; every delivery is settled).
    server.clock.set(start + 1000);
    const ep = await api(server, 'GET', `/internal/webhook-endpoints/${endpoint.id}`, p.admin);
    assert.equal(ep.body.enabled, false, ep.text);
    assert.match(ep.body.disabled_reason, /Disabled after every attempt/);
    const log = await api(server, 'GET', `/internal/webhook-endpoints/${endpoint.id}/deliveries`, p.admin);
    assert.equal(log.body.items[0].status, 'failed');
    assert.equal(log.body.items[0].attempts.length, RETRY_SCHEDULE_MS.length);

    const emails = await api(server, 'GET', '/internal/emails', { ...internal.admin });
    const notice = emails.body.items.find((e: { subject: string }) => e.subject === 'Webhook endpoint disabled in New Project');
    assert.ok(notice, emails.text.slice(0, 500));
    assert.deepEqual(notice.to, ['owner@example.com']);

    assert.equal((await api(server, 'PATCH', `/internal/webhook-endpoints/${endpoint.id}`, p.admin, { enabled: true })).body.disabled_reason, null);
    const retry = await api(server, 'POST', `/internal/webhook-endpoints/${endpoint.id}/deliveries/${log.body.items[0].message_id}/retry`, p.admin);
    assert.deepEqual(retry.body, { success: true });
    const all = await receiver.waitFor(RETRY_SCHEDULE_MS.length + 1);
    assert.equal(all.at(-1)!.headers['webhook-id'], log.body.items[0].message_id);
    await webhookWorkerIdle(server.gatehouse.core.runtime);
    const afterRetry = await api(server, 'GET', `/internal/webhook-endpoints/${endpoint.id}/deliveries`, p.admin);
    assert.equal(afterRetry.body.items[0].status, 'succeeded');
    await receiver.close();
  });

});
