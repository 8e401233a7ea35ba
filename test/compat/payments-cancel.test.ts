import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { configure, PAYMENTS_CONFIG } from '../helpers/payments.ts';
import { startStripeApi } from '../helpers/stripe-api.ts';
import { buyThroughStripe } from '../helpers/stripe-checkout.ts';
import type { TestServer } from '../helpers/server.ts';

// Upstream https://github.com/stack-auth/stack-auth/blob/2f719903b181c20940159e9f3aaaa99bc3ec3b0f/apps/e2e/tests/backend/endpoints/api/v1/payments/products.test.ts
// "should reject canceling a one-time purchase product" (inline snapshot) and the DELETE handler of
// payments/products/[customer_type]/[customer_id]/[product_id]: its plain 400 texts. Cancel timing,
// grant answers and replaced subscriptions: products.test.ts "should allow a signed-in user to cancel
// their own subscription product", "should cancel all stackable subscription quantities", "should
// cancel existing subscriptions immediately when granting a product of same catalog" (inline
// snapshots) and upstream `grantProductToCustomer` (a conflicting Stripe subscription is canceled
// in Stripe). Stripe is the loopback Stripe API.

const SECRET_KEY = 'sk_test_GatehouseCancelKey4242';
const WEBHOOK_SECRET = 'whsec_GatehouseCancelSecret';
let clockNow = () => Date.now();
const stripeApi = await startStripeApi({ secretKey: SECRET_KEY, now: () => clockNow() });
after(() => stripeApi.close());

const SEATS = {
  ...PAYMENTS_CONFIG,
  'payments.products.seats': {
    displayName: 'Seats',
    customerType: 'user',
    stackable: true,
    prices: { monthly: { USD: '10', interval: [1, 'month'] } },
    includedItems: {},
  },
};

const listed = async (server: TestServer, caller: Parameters<typeof api>[3], userId: string) =>
  (await api(server, 'GET', `/payments/products/user/${userId}`, caller)).body.items.map(
    (i: { id: string; quantity: number; type: string; subscription: unknown }) => [i.id, i.quantity, i.type, i.subscription],
  );

async function stripeProject(server: TestServer) {
  const p = await createProject(server);
  await configure(server, p.admin, { ...SEATS, 'payments.testMode': false });
  const keys = await api(server, 'PUT', '/internal/payments/stripe/keys', p.admin, {
    secret_key: SECRET_KEY,
    webhook_secret: WEBHOOK_SECRET,
  });
  assert.equal(keys.status, 200, keys.text);
  return p;
}

describeWithServer('payments cancel answers as upstream', (get) => {
  it("answers upstream's plain 400s for a one-time product, a product not owned and an unknown subscription id", async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const user = await projectUser(server, p);
    assert.equal((await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'pack' })).status, 200);
    const del = (path: string) => api(server, 'DELETE', `/payments/products/user/${user.id}/${path}`, user.client);

    const oneTime = await del('pack');
    assert.equal(oneTime.status, 400);
    assert.equal(oneTime.text, 'This product is a one time purchase and cannot be canceled.');
    const notOwned = await del('pro');
    assert.equal(notOwned.status, 400);
    assert.equal(notOwned.text, 'Customer does not have this product.');
    const unknownSub = await del('_inline?subscription_id=00000000-0000-4000-8000-000000000000');
    assert.equal(unknownSub.status, 400);
    assert.equal(unknownSub.text, 'No active subscription found with this ID for the given customer.');
    assertKnownError(await del('no-such-product'), 'PRODUCT_DOES_NOT_EXIST', 400);

    assert.equal((await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'pro' })).status, 200);
    const ok = await del('pro');
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body, { success: true });
  });

  it('grants answer subscription_id for subscriptions only; a canceled grant stays owned as one_time until its period ends', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, SEATS);
    const user = await projectUser(server, p);
    const other = await projectUser(server, p);
    const grant = (productId: string) => api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: productId });
    const pro = await grant('pro');
    assert.equal(pro.status, 200, pro.text);
    assert.deepEqual(Object.keys(pro.body).sort(), ['subscription_id', 'success']);
    assert.match(pro.body.subscription_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual((await grant('pack')).body, { success: true });
    assert.equal((await grant('seats')).status, 200);
    assert.equal((await grant('seats')).status, 200);

    const foreign = await api(server, 'DELETE', `/payments/products/user/${user.id}/pro`, other.client);
    assert.equal(foreign.status, 403);
    assert.equal(foreign.text, 'Clients can only cancel their own subscriptions.');
    for (const productId of ['pro', 'seats']) {
      const res = await api(server, 'DELETE', `/payments/products/user/${user.id}/${productId}`, user.client);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true });
    }
    assert.deepEqual(await listed(server, user.client, user.id), [
      ['pack', 1, 'one_time', null],
      ['pro', 1, 'one_time', null],
      ['seats', 2, 'one_time', null],
    ]);
    // Its included items last until the period ends, as the product does.
    assert.equal((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, p.server)).body.quantity, 150);
    const again = await api(server, 'DELETE', `/payments/products/user/${user.id}/pro`, p.server);
    assert.equal(again.text, 'This product is a one time purchase and cannot be canceled.');
    // A month later (the admin session has expired by then: a server key asks).
    const keys = await createProjectKeys(server, p.admin);
    const serverKey = { projectId: p.projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey };
    server.clock.advance(32 * 86_400_000);
    assert.deepEqual(await listed(server, serverKey, user.id), [['pack', 1, 'one_time', null]]);
    assert.equal((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, serverKey)).body.quantity, 50);
  });

  it('a grant in the same product line ends the granted subscription at once (items of the new plan only)', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const user = await projectUser(server, p);
    for (const productId of ['pro', 'max']) {
      const res = await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: productId });
      assert.deepEqual(Object.keys(res.body).sort(), ['subscription_id', 'success']);
    }
    assert.equal((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, user.client)).body.quantity, 500);
    assert.deepEqual(
      (await listed(server, user.client, user.id)).map((r: unknown[]) => r.slice(0, 3)),
      [['max', 1, 'subscription']],
    );
  });
});

describeWithServer(
  'payments cancel and replacement of Stripe subscriptions as upstream',
  (get) => {
    it('cancels a Stripe subscription in Stripe at once; a grant or purchase replacing one in its line cancels it in Stripe', async () => {
      const server = get();
      clockNow = () => server.clock.now();
      const p = await stripeProject(server);
      const user = await projectUser(server, p);
      const buy = (productId: string) =>
        buyThroughStripe(server, stripeApi, p, user, {
          productId,
          priceId: 'monthly',
          webhookSecret: WEBHOOK_SECRET,
          stripeCustomer: `cus_cancel_${p.projectId}`,
        });
      const deletes = (from: number) =>
        stripeApi.calls
          .slice(from)
          .filter((c) => c.method === 'DELETE')
          .map((c) => c.path);

      // Cancel: DELETE /v1/subscriptions/{id}; the product is gone at once.
      const pro = await buy('pro');
      let from = stripeApi.calls.length;
      const cancel = await api(server, 'DELETE', `/payments/products/user/${user.id}/pro`, user.client);
      assert.equal(cancel.status, 200, cancel.text);
      assert.deepEqual(cancel.body, { success: true });
      assert.deepEqual(deletes(from), [`/v1/subscriptions/${pro.subscriptionId}`]);
      assert.equal(stripeApi.subscriptions.get(pro.subscriptionId!)!.status, 'canceled');
      assert.deepEqual(await listed(server, user.client, user.id), []);

      // A purchase of another plan of the line replaces the Stripe subscription: canceled in Stripe.
      const first = await buy('pro');
      from = stripeApi.calls.length;
      const second = await buy('max');
      assert.deepEqual(deletes(from), [`/v1/subscriptions/${first.subscriptionId}`]);
      // A grant replacing a Stripe subscription cancels it in Stripe too.
      from = stripeApi.calls.length;
      const granted = await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'pro' });
      assert.equal(granted.status, 200, granted.text);
      assert.deepEqual(deletes(from), [`/v1/subscriptions/${second.subscriptionId}`]);
      assert.deepEqual(
        (await listed(server, user.client, user.id)).map((r: unknown[]) => r.slice(0, 3)),
        [['pro', 1, 'subscription']],
      );
    });
  },
  { stripeApiOverride: stripeApi.override },
);
