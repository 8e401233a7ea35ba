import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, apiAllowing503, assertKnownError, createProject } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { configure, PAYMENTS_CONFIG } from '../helpers/payments.ts';
import { startStripeApi } from '../helpers/stripe-api.ts';
import { buyThroughStripe } from '../helpers/stripe-checkout.ts';
import type { TestServer } from '../helpers/server.ts';

// Upstream https://github.com/stack-auth/stack-auth/blob/2f719903b181c20940159e9f3aaaa99bc3ec3b0f/apps/e2e/tests/backend/endpoints/api/v1/internal/transactions-refund.test.ts
// (inline snapshots) and the handler of internal/payments/transactions/refund (`refund_entries`);
// the SDK 2.8.108's `refundTransaction` sends `amount_usd` and `end_action` ("now" | "at-period-end").
// Stripe is the loopback Stripe API.

const SECRET_KEY = 'sk_test_GatehouseRefundKey4242';
const WEBHOOK_SECRET = 'whsec_GatehouseRefundSecret';
let clockNow = () => Date.now();
const stripeApi = await startStripeApi({ secretKey: SECRET_KEY, now: () => clockNow() });
after(() => stripeApi.close());

const schemaError = (message: string) => ({ code: 'SCHEMA_ERROR', details: { message }, error: message });

async function setup(server: TestServer) {
  clockNow = () => server.clock.now();
  const p = await createProject(server);
  await configure(server, p.admin, { ...PAYMENTS_CONFIG, 'payments.testMode': false });
  const keys = await api(server, 'PUT', '/internal/payments/stripe/keys', p.admin, {
    secret_key: SECRET_KEY,
    webhook_secret: WEBHOOK_SECRET,
  });
  assert.equal(keys.status, 200, keys.text);
  const user = await projectUser(server, p);
  const buy = (productId: string, priceId: string, paymentIntent: string) =>
    buyThroughStripe(server, stripeApi, p, user, {
      productId,
      priceId,
      webhookSecret: WEBHOOK_SECRET,
      stripeCustomer: `cus_refund_${p.projectId}`,
      paymentIntent,
    });
  const refund = (body: Record<string, unknown>) => api(server, 'POST', '/internal/payments/transactions/refund', p.admin, body);
  const products = async () =>
    (await api(server, 'GET', `/payments/products/user/${user.id}`, user.client)).body.items.map(
      (i: { id: string; type: string; subscription: { cancel_at_period_end: boolean } | null }) => [
        i.id,
        i.type,
        i.subscription?.cancel_at_period_end ?? null,
      ],
    );
  const transactions = async () => (await api(server, 'GET', '/internal/payments/transactions', p.admin)).body.transactions;
  return { p, user, buy, refund, products, transactions };
}

describeWithServer(
  'payments refunds as upstream answers them',
  (get) => {
    it('checks refund_entries in upstream words, refunds through Stripe, revokes the purchase and answers { success: true }', async () => {
      const server = get();
      const { buy, refund, products, transactions } = await setup(server);
      await buy('pack', 'once', 'pi_pack_refund');
      const purchase = (await transactions()).find((t: { type: string }) => t.type === 'purchase');
      assert.deepEqual(
        purchase.entries.map((e: { type: string }) => e.type),
        ['product_grant', 'money_transfer', 'item_quantity_change'],
      );
      const entries = (refund_entries: unknown[]) => refund({ type: 'one-time-purchase', id: purchase.id, refund_entries });
      const from = stripeApi.calls.length;
      const cases: Array<[unknown[], string]> = [
        [[{ entry_index: 999, quantity: 1, amount_usd: '4' }], 'Refund entry index is invalid.'],
        [[{ entry_index: -1, quantity: 1, amount_usd: '4' }], 'Refund entry index is invalid.'],
        [[{ entry_index: 1, quantity: 1, amount_usd: '4' }], 'Refund entries must reference product grant entries.'],
        [[{ entry_index: 0, quantity: -1, amount_usd: '4' }], 'Refund quantity cannot be negative.'],
        [[{ entry_index: 0, quantity: 2, amount_usd: '4' }], 'Refund quantity cannot exceed purchased quantity.'],
        [[{ entry_index: 0, quantity: 1, amount_usd: '4.01' }], 'Refund amount cannot exceed the charged amount.'],
        [
          [
            { entry_index: 0, quantity: 1, amount_usd: '1' },
            { entry_index: 0, quantity: 1, amount_usd: '1' },
          ],
          'Refund entries cannot contain duplicate entry indexes.',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await entries(body);
        assert.equal(res.status, 400, message);
        assert.equal(res.headers.get('x-stack-known-error'), 'SCHEMA_ERROR');
        assert.deepEqual(res.body, schemaError(message));
      }
      assert.equal((await entries([{ entry_index: 0, quantity: 1.5, amount_usd: '4' }])).body.code, 'SCHEMA_ERROR');
      const negative = await entries([{ entry_index: 0, quantity: 1, amount_usd: '-1' }]);
      assert.deepEqual(
        negative.body,
        schemaError(
          'Request validation failed on POST /api/v1/internal/payments/transactions/refund:\n  - Money amount must be in the format of <number> or <number>.<number>',
        ),
      );
      assert.equal(stripeApi.calls.slice(from).length, 0, 'refused refunds reach no Stripe API');

      const ok = await entries([{ entry_index: 0, quantity: 1, amount_usd: '4' }]);
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body, { success: true });
      const call = stripeApi.calls.slice(from).find((c) => c.path === '/v1/refunds' && c.form.payment_intent === 'pi_pack_refund')!;
      assert.equal(call.form.amount, '400');
      assert.deepEqual(await products(), []);
      const after = (await transactions()).find((t: { id: string }) => t.id === purchase.id);
      assert.deepEqual(after.adjusted_by, [{ entry_index: 0, transaction_id: `${purchase.id}:refund` }]);
      const again = await entries([{ entry_index: 0, quantity: 1, amount_usd: '4' }]);
      assertKnownError(again, 'ONE_TIME_PURCHASE_ALREADY_REFUNDED', 400);
      assert.deepEqual(again.body.details, { one_time_purchase_id: purchase.id });
    });

    it('a refund whose Stripe answer was lost is retried by the owner without refunding twice (one idempotency key per purchase; another amount: 409)', async () => {
      const server = get();
      const { p, buy, refund, transactions } = await setup(server);
      await buy('pack', 'once', 'pi_pack_lost');
      const purchase = (await transactions()).find((t: { type: string }) => t.type === 'purchase');
      const from = stripeApi.calls.length;
      const madeBefore = stripeApi.made.refunds;
      // Stripe refunds, but the answer never arrives: neither to the client's own network retry.
      stripeApi.lose.refundAnswers = 2;
      const lost = await apiAllowing503(server, 'POST', '/internal/payments/transactions/refund', p.admin, {
        type: 'one-time-purchase',
        id: purchase.id,
        amount_usd: '4',
      });
      assertKnownError(lost, 'STRIPE_UNAVAILABLE', 503);
      assert.equal(stripeApi.made.refunds, madeBefore + 1, 'the first request refunded the money');
      // A retry that asks Stripe for another amount is refused under the same key, and nothing is recorded.
      const other = await refund({ type: 'one-time-purchase', id: purchase.id, amount_usd: '3' });
      assertKnownError(other, 'STRIPE_IDEMPOTENCY_CONFLICT', 409);
      assert.equal(stripeApi.made.refunds, madeBefore + 1);
      const retried = await refund({ type: 'one-time-purchase', id: purchase.id, amount_usd: '4' });
      assert.equal(retried.status, 200, retried.text);
      assert.equal(stripeApi.made.refunds, madeBefore + 1, 'the retry got Stripe\u2019s first answer instead of a second refund');
      const keys = stripeApi.calls
        .slice(from)
        .filter((c) => c.path === '/v1/refunds')
        .map((c) => c.idempotencyKey);
      assert.ok(keys.length >= 2, `refund calls: ${keys.length}`);
      assert.deepEqual(new Set(keys), new Set([`gatehouse-refund-${purchase.id}`]));
      const again = await refund({ type: 'one-time-purchase', id: purchase.id, amount_usd: '4' });
      assertKnownError(again, 'ONE_TIME_PURCHASE_ALREADY_REFUNDED', 400);
    });

    it('a subscription refunded by refund_entries loses the units at once and ends in Stripe at the period end', async () => {
      const server = get();
      const { p, user, buy, refund, products, transactions } = await setup(server);
      const { subscriptionId } = await buy('pro', 'monthly', 'pi_pro_refund');
      const sub = (await transactions()).find((t: { type: string }) => t.type === 'purchase');
      const from = stripeApi.calls.length;
      const res = await refund({ type: 'subscription', id: sub.id, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: '9.99' }] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true });
      const calls = stripeApi.calls.slice(from);
      assert.equal(calls.find((c) => c.path === '/v1/refunds')!.form.amount, '999');
      const update = calls.find((c) => c.method === 'POST' && c.path === `/v1/subscriptions/${subscriptionId}`)!;
      assert.equal(update.form.cancel_at_period_end, 'true');
      assert.equal(update.form['items[0][quantity]'], '0');
      assert.equal(
        calls.some((c) => c.method === 'DELETE'),
        false,
      );
      assert.deepEqual(await products(), []);
      // Granted (not billed through Stripe) and unknown subscriptions have no invoice to refund.
      const granted = await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'max' });
      for (const id of [granted.body.subscription_id, '00000000-0000-4000-8000-000000000000']) {
        const missing = await refund({ type: 'subscription', id, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: '1' }] });
        assert.equal(missing.status, 404);
        assert.deepEqual(missing.body, {
          code: 'SUBSCRIPTION_INVOICE_NOT_FOUND',
          details: { subscription_invoice_id: id },
          error: `Subscription invoice with ID ${JSON.stringify(id)} does not exist.`,
        });
      }
    });

    it("honours the SDK's end_action: at-period-end keeps the plan until then, none keeps it; a one-off purchase is revoked", async () => {
      const server = get();
      const { buy, refund, products, transactions } = await setup(server);
      const { subscriptionId } = await buy('pro', 'monthly', 'pi_pro_end');
      const sub = (await transactions()).find((t: { type: string }) => t.type === 'purchase');
      let from = stripeApi.calls.length;
      const later = await refund({ type: 'subscription', id: sub.id, amount_usd: '5', end_action: 'at-period-end' });
      assert.equal(later.status, 200, later.text);
      assert.deepEqual(later.body, { success: true, refund_transaction_id: `${sub.id}:refund` });
      const calls = stripeApi.calls.slice(from);
      assert.equal(calls.find((c) => c.path === '/v1/refunds')!.form.amount, '500');
      assert.equal(calls.find((c) => c.path === `/v1/subscriptions/${subscriptionId}`)!.form.cancel_at_period_end, 'true');
      assert.deepEqual(await products(), [['pro', 'subscription', true]]);

      await buy('pack', 'once', 'pi_pack_end');
      await buy('max', 'monthly', 'pi_max_end');
      const max = (await transactions()).find((t: { entries: Array<{ product_id?: string }> }) => t.entries[0]?.product_id === 'max');
      from = stripeApi.calls.length;
      const none = await refund({ type: 'subscription', id: max.id, amount_usd: '1', end_action: 'none' });
      assert.equal(none.status, 200, none.text);
      assert.deepEqual(
        stripeApi.calls.slice(from).map((c) => `${c.method} ${c.path}`),
        ['POST /v1/refunds'],
      );
      assert.deepEqual(await products(), [
        ['max', 'subscription', false],
        ['pack', 'one_time', null],
      ]);
      assertKnownError(await refund({ type: 'subscription', id: max.id, end_action: 'now' }), 'SUBSCRIPTION_ALREADY_REFUNDED', 400);
      const pack = (await transactions()).find((t: { entries: Array<{ product_id?: string }> }) => t.entries[0]?.product_id === 'pack');
      assert.equal((await refund({ type: 'one-time-purchase', id: pack.id, end_action: 'now' })).status, 200);
      assert.deepEqual(await products(), [['max', 'subscription', false]]);
    });
  },
  { stripeApiOverride: stripeApi.override },
);
