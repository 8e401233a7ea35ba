import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createCoreProject, describeWithCore, internalCredentials as internal } from '../../test/helpers/core-client.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/helpers/webhook-receiver.ts';
import { createSystemContext } from '../operations/execute.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { RETRY_SCHEDULE_MS, webhookWorkerIdle } from './index.ts';

const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

/**
 * Webhooks, in-process (test/helpers/core-client.ts), delivered to a local receiver (core's own
 * outbound HTTP).
 */
describeWithCore('webhooks', (get) => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver.close();
  });

  /** A project with one endpoint at the receiver; `received` is reset. */
  async function projectWithEndpoint(body: Record<string, unknown> = {}, to: WebhookReceiver = receiver) {
    const t = get();
    await webhookWorkerIdle(t.core.runtime);
    receiver.received.length = 0;
    receiver.respondWith.length = 0;
    const p = await createCoreProject(t);
    const created = await t.call<any>('webhooks.createEndpoint', p.admin, { body: { url: to.url, description: 'app sync', ...body } });
    return { p, endpoint: created };
  }

  it("delivers user, team, membership and permission events once each, signed per Standard Webhooks, with Stack's payloads", async () => {
    const t = get();
    const { p, endpoint } = await projectWithEndpoint();
    assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/=]{32}$/);
    const hook = new Webhook(endpoint.secret);

    const alice = await t.call<any>('users.create', p.server, { body: { primary_email: 'alice@example.com', display_name: 'Alice' } });
    const bob = await t.call<any>('users.create', p.server, { body: { display_name: 'Bob' } });
    await t.call<any>('users.update', p.server, { params: { user_id: alice.id }, body: { display_name: 'Alice B.' } });
    const team = await t.call<any>('teams.create', p.server, { body: { display_name: 'Alpha', creator_user_id: alice.id } });
    assert.ok(await t.call<any>('teams.addMember', p.server, { params: { team_id: team.id, user_id: bob.id } }));
    await t.call<any>('permissions.createTeamDefinition', p.admin, { body: { id: 'read_reports' } });
    assert.ok(
      await t.call<any>('permissions.grantTeam', p.server, {
        params: { team_id: team.id, user_id: bob.id, permission_id: 'read_reports' },
      }),
    );
    assert.ok(await t.call<any>('users.delete', p.server, { params: { user_id: bob.id } }));

    const got = await receiver.waitFor(8);
    await webhookWorkerIdle(t.core.runtime);
    assert.deepEqual(got.map((r) => r.payload.type).sort(), [
      'team.created',
      'team_membership.created',
      'team_membership.created',
      'team_permission.created',
      'user.created',
      'user.created',
      'user.deleted',
      'user.updated',
    ]);
    assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, got.length, 'every message has its own id');

    for (const r of got) {
      // Throws when the signature does not match the secret, the id or the timestamp.
      const verified = hook.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
      assert.deepEqual(verified, r.payload);
      assert.equal(r.headers['svix-id'], r.headers['webhook-id']);
      assert.equal(r.headers['svix-signature'], r.headers['webhook-signature']);
      assert.match(String(r.headers['webhook-id']), /^msg_[0-9a-z]{26}$/);
    }
    const byType = (t: string) => got.filter((r) => r.payload.type === t).map((r) => r.payload.data);
    const aliceCreated = byType('user.created').find((u) => u.id === alice.id);
    assert.equal(aliceCreated.primary_email, 'alice@example.com');
    assert.equal(aliceCreated.display_name, 'Alice');
    assert.ok('server_metadata' in aliceCreated, 'the server-side user object');
    assert.equal(byType('user.updated')[0].display_name, 'Alice B.');
    assert.deepEqual(byType('team.created')[0].display_name, 'Alpha');
    assert.ok('server_metadata' in byType('team.created')[0]);
    assert.deepEqual(
      byType('team_membership.created')
        .map((m) => m.user_id)
        .sort(),
      [alice.id, bob.id].sort(),
    );
    assert.deepEqual(byType('team_permission.created'), [{ id: 'read_reports', user_id: bob.id, team_id: team.id }]);
    assert.deepEqual(byType('user.deleted'), [{ id: bob.id, teams: [{ id: team.id }] }]);
  });

  it("retries a failed delivery with the same message id on upstream's schedule, and the log records both attempts", async () => {
    const t = get();
    const { p, endpoint } = await projectWithEndpoint({ event_types: ['user.created'] });
    receiver.respondWith.push(500);
    const user = await t.call<any>('users.create', p.server, { body: { display_name: 'Retry Me' } });
    const [first] = await receiver.waitFor(1);
    assert.equal(first!.answered, 500);
    await webhookWorkerIdle(t.core.runtime);

    const pending = await t.call<any>('webhooks.listDeliveries', p.admin, { params: { endpoint_id: endpoint.id } });
    assert.equal(pending.items[0].status, 'pending');
    assert.equal(pending.items[0].attempt_count, 1);
    assert.equal(pending.items[0].next_attempt_at_millis, pending.items[0].attempts[0].attempted_at_millis + RETRY_SCHEDULE_MS[1]);

    t.clock.advance(RETRY_SCHEDULE_MS[1]);
    const [, second] = await receiver.waitFor(2);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    assert.equal(second!.body, first!.body);
    assert.equal(second!.payload.data.id, user.id);
    await webhookWorkerIdle(t.core.runtime);

    const log = await t.call<any>('webhooks.listDeliveries', p.admin, { params: { endpoint_id: endpoint.id } });
    const [entry] = log.items;
    assert.equal(entry.message_id, first!.headers['webhook-id']);
    assert.equal(entry.event_type, 'user.created');
    assert.equal(entry.status, 'succeeded');
    assert.equal(entry.next_attempt_at_millis, null);
    assert.deepEqual(
      entry.attempts.map((a: { status_code: number }) => a.status_code),
      [500, 200],
    );
    assert.equal(entry.attempts[0].response_excerpt, 'receiver says no');
    assert.equal(receiver.received.length, 2, 'no third attempt');
  });

  it('sends only subscribed event types', async () => {
    const t = get();
    const { p } = await projectWithEndpoint({ event_types: ['team.created'] });
    await t.call<any>('users.create', p.server, { body: { display_name: 'Not sent' } });
    await t.call<any>('teams.create', p.server, { body: { display_name: 'Sent' } });
    const got = await receiver.waitFor(1);
    await webhookWorkerIdle(t.core.runtime);
    assert.deepEqual(
      receiver.received.map((r) => r.payload.type),
      ['team.created'],
    );
    assert.equal(got[0]!.payload.data.display_name, 'Sent');
  });

  it('writes no event for a change that rolls back, and one for a change that commits', async () => {
    const t = get();
    const { p } = await projectWithEndpoint();
    const runtime = t.core.runtime;
    const ctx = createSystemContext(runtime);
    await assert.rejects(
      ctx.transaction(async (tx) => {
        await emitWebhookEvent(tx, p.projectId, 'team.deleted', { id: MISSING });
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    await ctx.transaction((tx) => emitWebhookEvent(tx, p.projectId, 'team.deleted', { id: 'committed' }));
    await ctx.flush();
    const messages = await runtime.db
      .selectFrom('webhook_messages')
      .select(['event_type', 'payload'])
      .where('project_id', '=', p.projectId)
      .execute();
    assert.deepEqual(
      messages.map((m) => JSON.parse(m.payload).data.id),
      ['committed'],
    );
  });

  it('shows the secret only on create and rotation, and signs with the new one after rotating', async () => {
    const t = get();
    const { p, endpoint } = await projectWithEndpoint({ event_types: ['team.created'] });
    const listed = await t.call<any>('webhooks.listEndpoints', p.admin);
    assert.deepEqual(
      listed.items.map((e: { id: string }) => e.id),
      [endpoint.id],
    );
    assert.equal('secret' in listed.items[0], false);
    assert.equal('secret' in (await t.call<any>('webhooks.getEndpoint', p.admin, { params: { endpoint_id: endpoint.id } })), false);
    const rotated = await t.call<any>('webhooks.rotateSecret', p.admin, { params: { endpoint_id: endpoint.id } });
    assert.notEqual(rotated.secret, endpoint.secret);
    await t.call<any>('teams.create', p.server, { body: { display_name: 'After rotation' } });
    const [r] = await receiver.waitFor(1);
    const headers = {
      'webhook-id': String(r!.headers['webhook-id']),
      'webhook-timestamp': String(r!.headers['webhook-timestamp']),
      'webhook-signature': String(r!.headers['webhook-signature']),
    };
    assert.throws(() => new Webhook(endpoint.secret).verify(r!.body, headers));
    assert.deepEqual(new Webhook(rotated.secret).verify(r!.body, headers), r!.payload);
  });

  it('answers send-test-webhook as upstream: success after a 2xx, a message on failure or a missing endpoint', async () => {
    const t = get();
    const { p, endpoint } = await projectWithEndpoint();
    const ok = await t.call<any>('webhooks.sendTest', p.admin, { body: { endpoint_id: endpoint.id } });
    assert.deepEqual(ok, { success: true });
    assert.equal(receiver.received.at(-1)!.payload.type, 'stack.test');
    assert.equal(receiver.received.at(-1)!.payload.data.endpointUrl, receiver.url);
    receiver.respondWith.push(500);
    const failed = await t.call<any>('webhooks.sendTest', p.admin, { body: { endpoint_id: endpoint.id } });
    assert.deepEqual(failed, { success: false, error_message: 'Webhook not delivered. Make sure the endpoint is configured correctly.' });
    const missing = await t.call<any>('webhooks.sendTest', p.admin, { body: { endpoint_id: MISSING } });
    assert.deepEqual(missing, { success: false, error_message: 'Endpoint not found. Make sure it still exists.' });
    const svix = await t.call<any>('webhooks.svixToken', p.admin, { body: {} });
    assert.equal(t.core.operations.find((op) => op.id === 'webhooks.svixToken')?.created, true, '201 on the wire');
    assert.deepEqual(svix, { token: '' });
  });

  it('keeps endpoints per project, refuses non-http URLs, and needs admin access', async () => {
    const t = get();
    const { endpoint } = await projectWithEndpoint();
    const other = await createCoreProject(t);
    assert.equal(
      (await t.refuses('webhooks.getEndpoint', other.admin, { params: { endpoint_id: endpoint.id } }, 'WEBHOOK_ENDPOINT_NOT_FOUND')).status,
      404,
    );
    assert.equal(
      (await t.refuses('webhooks.deleteEndpoint', other.admin, { params: { endpoint_id: endpoint.id } }, 'WEBHOOK_ENDPOINT_NOT_FOUND'))
        .status,
      404,
    );
    assert.deepEqual((await t.call<any>('webhooks.listEndpoints', other.admin)).items, []);
    const ftp = await t.refuses('webhooks.createEndpoint', other.admin, { body: { url: 'ftp://example.com/hook' } }, 'SCHEMA_ERROR');
    assert.equal(ftp.status, 400);
    assert.match(ftp.message, /url must use http or https/);
    assert.equal(
      (
        await t.refuses(
          'webhooks.createEndpoint',
          other.admin,
          { body: { url: 'https://example.com', event_types: ['user.exploded'] } },
          'SCHEMA_ERROR',
        )
      ).status,
      400,
    );
    // 401 on the wire.
    assert.equal((await t.refuses('webhooks.listEndpoints', other.client, {}, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
  });
  // Last: it moves the injected clock through the whole retry schedule.
  it('disables an endpoint whose every attempt failed, tells the owners by email, and retries from the log once it is back on', async () => {
    const t = get();
    // Its own receiver: earlier tests' failed messages also come due as the clock moves.
    const receiver = await startWebhookReceiver();
    const { p, endpoint } = await projectWithEndpoint({ event_types: ['user.created'] }, receiver);
    await t.call<any>('users.update', internal.server, { params: { user_id: p.owner.id }, body: { primary_email: 'owner@example.com' } });
    receiver.respondWith.push(...RETRY_SCHEDULE_MS.map(() => 503));
    await t.call<any>('users.create', p.server, { body: { display_name: 'Never arrives' } });
    const start = t.clock.now();
    for (let n = 1; n <= RETRY_SCHEDULE_MS.length; n++) {
      await receiver.waitFor(n);
      await webhookWorkerIdle(t.core.runtime);
      if (n < RETRY_SCHEDULE_MS.length) t.clock.advance(RETRY_SCHEDULE_MS[n]!);
    }
    // Back to the start (17.6 h later the owner's admin token has expired; every delivery is settled).
    t.clock.set(start + 1000);
    const ep = await t.call<any>('webhooks.getEndpoint', p.admin, { params: { endpoint_id: endpoint.id } });
    assert.equal(ep.enabled, false, JSON.stringify(ep));
    assert.match(ep.disabled_reason, /Disabled after every attempt/);
    const log = await t.call<any>('webhooks.listDeliveries', p.admin, { params: { endpoint_id: endpoint.id } });
    assert.equal(log.items[0].status, 'failed');
    assert.equal(log.items[0].attempts.length, RETRY_SCHEDULE_MS.length);

    const emails = await t.call<any>('emails.list', { ...internal.admin });
    const notice = emails.items.find((e: { subject: string }) => e.subject === 'Webhook endpoint disabled in New Project');
    assert.ok(notice, JSON.stringify(emails).slice(0, 500));
    assert.deepEqual(notice.to, ['owner@example.com']);

    assert.equal(
      (await t.call<any>('webhooks.updateEndpoint', p.admin, { params: { endpoint_id: endpoint.id }, body: { enabled: true } }))
        .disabled_reason,
      null,
    );
    const retry = await t.call<any>('webhooks.retryDelivery', p.admin, {
      params: { endpoint_id: endpoint.id, message_id: log.items[0].message_id },
    });
    assert.deepEqual(retry, { success: true });
    const all = await receiver.waitFor(RETRY_SCHEDULE_MS.length + 1);
    assert.equal(all.at(-1)!.headers['webhook-id'], log.items[0].message_id);
    await webhookWorkerIdle(t.core.runtime);
    const afterRetry = await t.call<any>('webhooks.listDeliveries', p.admin, { params: { endpoint_id: endpoint.id } });
    assert.equal(afterRetry.items[0].status, 'succeeded');
    await receiver.close();
  });
});
