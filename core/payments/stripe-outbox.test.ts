import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, it } from 'node:test';
import Stripe from 'stripe';
import type { Credentials } from '../index.ts';
import { createCoreProject, createCoreUser, describeWithCore, startSecondCore, type TestCore } from '../../test/helpers/core-client.ts';
import { PAYMENTS_CONFIG, codeOf } from '../../test/helpers/payments-config.ts';
import { openPurchaseCode } from './purchase-codes.ts';
import { STRIPE_METADATA } from './purchase-session.ts';
import { listStripeOutboxRows } from './stripe-outbox-queries.ts';
import { STRIPE_RETRY_SCHEDULE_MS, retryDueStripeChanges, runStripeOutboxWorker } from './stripe-outbox.ts';

/**
 * The Stripe outbox (stripe-outbox.ts), in-process: a Stripe subscription change owed after a
 * local change (a replaced, canceled or refunded purchase) is recorded with it and reaches Stripe
 * even when Stripe fails or the process dies before the call. Stripe is a loopback fake of the
 * few endpoints used here, whose subscription calls can be made to fail.
 */

const SECRET_KEY = 'sk_test_GatehouseOutboxKey4242';
const WEBHOOK_SECRET = 'whsec_GatehouseOutboxWebhookSecret';
const signer = new Stripe(SECRET_KEY);

/** A fault the fake answers the next subscription call with: a 500 (not to be retried by the client), or a dropped connection. */
type Fault = 'status-500' | 'drop';

const stripe = await startFakeStripe();
after(() => stripe.close());

/** Errors the core logged, as `message` lines. */
const errorLogs: string[] = [];
const logger = { info() {}, warn() {}, error: (_fields: Record<string, unknown>, message: string) => void errorLogs.push(message) };

describeWithCore(
  'payments: the Stripe outbox',
  (get) => {
    it('cancels a replaced Stripe subscription on retry when Stripe first answers 500', async () => {
      const t = get();
      const { p, user, subscriptionId, purchaseId } = await stripeSubscriber(t);
      stripe.faults.push('status-500');
      await t.call('payments.grantProduct', p.server, {
        params: { customer_type: 'user', customer_id: user.id },
        body: { product_id: 'max' },
      });
      assert.equal(stripe.deletes(subscriptionId), 1, 'attempted at once after commit');
      assert.equal(stripe.subscriptions.get(subscriptionId)!.status, 'active');
      let [row] = await listStripeOutboxRows(t.core.runtime.db, p.projectId, purchaseId);
      assert.equal(row?.status, 'pending');
      assert.equal(row?.attempt_count, 1);
      assert.match(row?.last_error ?? '', /^500 /);

      await retryDueStripeChanges(t.core.runtime);
      assert.equal(stripe.deletes(subscriptionId), 1, 'not due before the backoff');
      t.clock.advance(STRIPE_RETRY_SCHEDULE_MS[1]);
      await retryDueStripeChanges(t.core.runtime);
      assert.equal(stripe.deletes(subscriptionId), 2);
      assert.equal(stripe.subscriptions.get(subscriptionId)!.status, 'canceled');
      [row] = await listStripeOutboxRows(t.core.runtime.db, p.projectId, purchaseId);
      assert.deepEqual([row?.status, row?.attempt_count, row?.next_attempt_at], ['done', 2, null]);
    });

    it('a replacement applied from a Stripe event is canceled by the retry worker when the call after commit never succeeded', async () => {
      const t = get();
      const { p, user, subscriptionId, purchaseId } = await stripeSubscriber(t);
      // The call after commit dies on the wire (twice: the client's own retry too), as if the process had.
      stripe.faults.push('drop', 'drop');
      const event = await checkoutCompleted(t, p, user, 'max');
      assert.deepEqual(await t.call('payments.stripeWebhook', {}, event), { received: true });
      assert.equal(stripe.subscriptions.get(subscriptionId)!.status, 'active');
      // Stripe redelivering the event changes nothing (the event was applied); the outbox row stays.
      assert.deepEqual(await t.call('payments.stripeWebhook', {}, event), { received: true });
      assert.equal((await listStripeOutboxRows(t.core.runtime.db, p.projectId, purchaseId)).length, 1);

      t.clock.advance(STRIPE_RETRY_SCHEDULE_MS[1]);
      await runStripeOutboxWorker(t.core.runtime);
      assert.equal(stripe.subscriptions.get(subscriptionId)!.status, 'canceled');
      const [row] = await listStripeOutboxRows(t.core.runtime.db, p.projectId, purchaseId);
      assert.equal(row?.status, 'done');
    });

    it('two processes on one database claim a due cancellation once', async () => {
      const t = get();
      const second = await startSecondCore(t);
      try {
        const { p, user, subscriptionId, purchaseId } = await stripeSubscriber(t);
        stripe.faults.push('status-500');
        await t.call('payments.grantProduct', p.server, {
          params: { customer_type: 'user', customer_id: user.id },
          body: { product_id: 'max' },
        });
        assert.equal(stripe.deletes(subscriptionId), 1);
        t.clock.advance(STRIPE_RETRY_SCHEDULE_MS[1]);
        stripe.delayMs = 200;
        await Promise.all([retryDueStripeChanges(t.core.runtime), retryDueStripeChanges(second.runtime)]);
        stripe.delayMs = 0;
        assert.equal(stripe.deletes(subscriptionId), 2, 'one call for the due attempt');
        const [row] = await listStripeOutboxRows(t.core.runtime.db, p.projectId, purchaseId);
        assert.deepEqual([row?.status, row?.attempt_count], ['done', 2]);
      } finally {
        await second.close();
      }
    });

    it('a customer cancelling while Stripe fails gets the cancellation; Stripe has it once Stripe answers', async () => {
      const t = get();
      const { user, subscriptionId, p, purchaseId } = await stripeSubscriber(t);
      stripe.faults.push('status-500');
      const cancel = { params: { customer_type: 'user', customer_id: user.id, product_id: 'pro' } };
      assert.deepEqual(await t.call('payments.cancelSubscription', user.client, cancel), { success: true });
      assert.deepEqual(await ownedProducts(t, user), []);
      assert.equal(stripe.subscriptions.get(subscriptionId)!.status, 'active');
      t.clock.advance(STRIPE_RETRY_SCHEDULE_MS[1]);
      await retryDueStripeChanges(t.core.runtime);
      assert.equal(stripe.subscriptions.get(subscriptionId)!.status, 'canceled');
      assert.equal((await listStripeOutboxRows(t.core.runtime.db, p.projectId, purchaseId))[0]?.status, 'done');
    });

    it('a refund that ends the subscription is recorded though the cancellation fails; the retry cancels it', async () => {
      const t = get();
      const { p, subscriptionId, purchaseId } = await stripeSubscriber(t);
      stripe.faults.push('status-500');
      const refundsBefore = stripe.refunds;
      const refund = await t.call('payments.refundTransaction', p.admin, { body: { type: 'subscription', id: purchaseId } });
      assert.deepEqual(refund, { success: true, refund_transaction_id: `${purchaseId}:refund` });
      assert.equal(stripe.refunds, refundsBefore + 1);
      assert.equal(stripe.subscriptions.get(subscriptionId)!.status, 'active');
      t.clock.advance(STRIPE_RETRY_SCHEDULE_MS[1]);
      await retryDueStripeChanges(t.core.runtime);
      assert.equal(stripe.subscriptions.get(subscriptionId)!.status, 'canceled');
      assert.equal(stripe.refunds, refundsBefore + 1, 'the money is refunded once');
    });

    it('after the last failed attempt the row stays failed, with its error, and an error is logged', async () => {
      const t = get();
      const { p, user, subscriptionId, purchaseId } = await stripeSubscriber(t);
      stripe.faults.push(...STRIPE_RETRY_SCHEDULE_MS.map((): Fault => 'status-500'));
      await t.call('payments.grantProduct', p.server, {
        params: { customer_type: 'user', customer_id: user.id },
        body: { product_id: 'max' },
      });
      for (const delay of STRIPE_RETRY_SCHEDULE_MS.slice(1)) {
        t.clock.advance(delay);
        await retryDueStripeChanges(t.core.runtime);
      }
      assert.equal(stripe.deletes(subscriptionId), STRIPE_RETRY_SCHEDULE_MS.length);
      assert.equal(stripe.faults.length, 0);
      const [row] = await listStripeOutboxRows(t.core.runtime.db, p.projectId, purchaseId);
      assert.deepEqual([row?.status, row?.attempt_count, row?.next_attempt_at], ['failed', STRIPE_RETRY_SCHEDULE_MS.length, null]);
      assert.match(row?.last_error ?? '', /^500 /);
      assert.ok(errorLogs.some((m) => m.startsWith('Stripe subscription change failed for good')));
      t.clock.advance(STRIPE_RETRY_SCHEDULE_MS.at(-1)!);
      await retryDueStripeChanges(t.core.runtime);
      assert.equal(stripe.deletes(subscriptionId), STRIPE_RETRY_SCHEDULE_MS.length, 'no attempt after the last');
    });
  },
  { stripeApiOverride: stripe.override, logger },
);

/** The user's owned products (ids). */
async function ownedProducts(t: TestCore, user: { id: string; client: Credentials }) {
  const listed = await t.call<{ items: Array<{ id: string }> }>('payments.listCustomerProducts', user.client, {
    params: { customer_type: 'user', customer_id: user.id },
  });
  return listed.items.map((i) => i.id);
}

type Project = Awaited<ReturnType<typeof createCoreProject>>;

/**
 * A project with its Stripe account connected and a user subscribed to `pro` through Stripe
 * (a Stripe subscription on the fake and the signed `checkout.session.completed` event).
 */
async function stripeSubscriber(t: TestCore) {
  const p = await createCoreProject(t);
  await t.call('config.updateOverride', p.admin, {
    params: { level: 'environment' },
    body: { config_override_string: JSON.stringify({ ...PAYMENTS_CONFIG, 'payments.testMode': false }) },
  });
  await t.call('payments.setStripeKeys', p.admin, { body: { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET } });
  const user = await createCoreUser(t, p);
  const event = await checkoutCompleted(t, p, user, 'pro');
  await t.call('payments.stripeWebhook', {}, event);
  const purchases = await t.core.runtime.db.selectFrom('payment_purchases').selectAll().where('project_id', '=', p.projectId).execute();
  assert.equal(purchases.length, 1);
  return { p, user, subscriptionId: purchases[0]!.stripe_subscription_id!, purchaseId: purchases[0]!.id };
}

let sessions = 0;

/** A signed `checkout.session.completed` event for a new purchase code of `productId`, with a new Stripe subscription. */
async function checkoutCompleted(t: TestCore, p: Project, user: { id: string; client: Credentials }, productId: string) {
  const url = await t.call<{ url: string }>('payments.createPurchaseUrl', user.client, {
    body: { customer_type: 'user', customer_id: user.id, product_id: productId },
  });
  const code = await openPurchaseCode(t.core.runtime.db, codeOf(url.url), t.clock.now());
  const n = ++sessions;
  const subscriptionId = stripe.addSubscription(t.clock.now());
  const payload = JSON.stringify({
    id: `evt_outbox_${n}`,
    object: 'event',
    api_version: '2025-01-27',
    created: Math.floor(t.clock.now() / 1000),
    livemode: false,
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_outbox_${n}`,
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        status: 'complete',
        customer: 'cus_outbox',
        subscription: subscriptionId,
        payment_intent: `pi_outbox_${n}`,
        metadata: {
          [STRIPE_METADATA.project]: p.projectId,
          [STRIPE_METADATA.branch]: 'main',
          [STRIPE_METADATA.code]: code.codeHash,
          [STRIPE_METADATA.price]: 'monthly',
          [STRIPE_METADATA.quantity]: '1',
        },
      },
    },
  });
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return { query: { project_id: p.projectId }, body: { payload, signature } };
}

/**
 * A loopback Stripe API for these tests, in Stripe's shapes: `GET /v1/account`,
 * `GET` / `DELETE /v1/subscriptions/{id}`, `POST /v1/refunds`. A subscription call takes the next
 * fault queued in `faults` (a 500 with `Stripe-Should-Retry: false`, or a dropped connection),
 * and waits `delayMs` first.
 */
async function startFakeStripe() {
  const subscriptions = new Map<string, { id: string; status: string; start: number }>();
  const calls: Array<{ method: string; path: string }> = [];
  const faults: Fault[] = [];
  let n = 0;
  const fake = { delayMs: 0, refunds: 0 };
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}`, ...headers });
    res.end(JSON.stringify(body));
  };
  const subscriptionBody = (s: { id: string; status: string; start: number }) => ({
    id: s.id,
    object: 'subscription',
    status: s.status,
    cancel_at_period_end: false,
    metadata: {},
    items: {
      object: 'list',
      data: [{ id: `si_${s.id}`, object: 'subscription_item', current_period_start: s.start, current_period_end: s.start + 30 * 86_400 }],
    },
  });
  const server = createServer(async (req: IncomingMessage, res) => {
    for await (const _ of req);
    const path = new URL(req.url ?? '/', 'http://stripe.test').pathname;
    calls.push({ method: req.method ?? 'GET', path });
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`)
      return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key' } });
    if (req.method === 'GET' && path === '/v1/account')
      return send(res, 200, { id: 'acct_outbox', object: 'account', charges_enabled: true });
    if (req.method === 'POST' && path === '/v1/refunds') {
      fake.refunds++;
      return send(res, 200, { id: `re_${++n}`, object: 'refund', status: 'succeeded' });
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    const s = sub ? subscriptions.get(sub[1]!) : undefined;
    if (!s)
      return send(res, 404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${sub?.[1]}'` },
      });
    if (req.method === 'GET') return send(res, 200, subscriptionBody(s));
    if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    const fault = faults.shift();
    if (fault === 'drop') return void req.socket.destroy();
    if (fault === 'status-500')
      return send(res, 500, { error: { type: 'api_error', message: 'Stripe had a problem' } }, { 'stripe-should-retry': 'false' });
    if (req.method === 'DELETE') s.status = 'canceled';
    return send(res, 200, subscriptionBody(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(fake, {
    subscriptions,
    faults,
    /** How many cancel calls subscription `id` got. */
    deletes: (id: string) => calls.filter((c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${id}`).length,
    addSubscription(nowMs: number) {
      const id = `sub_outbox_${++n}`;
      subscriptions.set(id, { id, status: 'active', start: Math.floor(nowMs / 1000) });
      return id;
    },
    override: { host: '127.0.0.1', port: (server.address() as { port: number }).port, protocol: 'http' as const },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
