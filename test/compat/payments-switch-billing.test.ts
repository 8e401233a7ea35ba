import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { configure } from '../helpers/payments.ts';
import { startStripeApi } from '../helpers/stripe-api.ts';
import { buyThroughStripe } from '../helpers/stripe-checkout.ts';
import type { TestServer } from '../helpers/server.ts';

// Upstream https://github.com/stack-auth/stack-auth/blob/2f719903b181c20940159e9f3aaaa99bc3ec3b0f/apps/e2e/tests/backend/endpoints/api/v1/payments/switch-plans.test.ts
// (inline snapshots) and the handlers of payments/products/[customer_type]/[customer_id]/switch
// and payments/billing/[customer_type]/[customer_id]; Stripe is the loopback Stripe API.

const SECRET_KEY = 'sk_test_GatehouseSwitchKey4242';
const WEBHOOK_SECRET = 'whsec_GatehouseSwitchSecret';
let clockNow = () => Date.now();
const stripeApi = await startStripeApi({ secretKey: SECRET_KEY, now: () => clockNow() });
after(() => stripeApi.close());

const PLANS = {
  'payments.productLines.plans': { displayName: 'Plans', customerType: 'user' },
  'payments.productLines.other': { displayName: 'Other', customerType: 'user' },
  'payments.products.free': {
    displayName: 'Free',
    customerType: 'user',
    productLineId: 'plans',
    prices: 'include-by-default',
    includedItems: {},
  },
  'payments.products.basic': {
    displayName: 'Basic',
    customerType: 'user',
    productLineId: 'plans',
    prices: { monthly: { USD: '1000', interval: [1, 'month'] } },
    includedItems: {},
  },
  'payments.products.pro': {
    displayName: 'Pro',
    customerType: 'user',
    productLineId: 'plans',
    prices: { monthly: { USD: '2000', interval: [1, 'month'] } },
    includedItems: {},
  },
  'payments.products.elsewhere': {
    displayName: 'Elsewhere',
    customerType: 'user',
    productLineId: 'other',
    prices: { monthly: { USD: '500', interval: [1, 'month'] } },
    includedItems: {},
  },
  'payments.testMode': false,
};

async function connectedProject(server: TestServer) {
  const p = await createProject(server);
  await configure(server, p.admin, PLANS);
  const keys = await api(server, 'PUT', '/internal/payments/stripe/keys', p.admin, {
    secret_key: SECRET_KEY,
    webhook_secret: WEBHOOK_SECRET,
  });
  assert.equal(keys.status, 200, keys.text);
  return p;
}

describeWithServer(
  'payments switch and billing as upstream answers them',
  (get) => {
    it('refuses switches upstream refuses, with its plain 400 texts', async () => {
      const server = get();
      const p = await createProject(server);
      await configure(server, p.admin, PLANS);
      const user = await projectUser(server, p);
      const sw = (from: string, to: string) =>
        api(server, 'POST', `/payments/products/user/${user.id}/switch`, user.client, { from_product_id: from, to_product_id: to });
      const across = await sw('basic', 'elsewhere');
      assert.equal(across.status, 400);
      assert.equal(across.text, 'Products must be in the same product line to switch.');
      const toDefault = await sw('basic', 'free');
      assert.equal(toDefault.status, 400);
      assert.equal(toDefault.text, 'Include-by-default products cannot be selected for plan switching.');
      const missing = await sw('basic', 'nope');
      assert.equal(missing.text, 'Product not found.');
      // A granted subscription has no Stripe subscription: it "cannot be switched".
      assert.equal((await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'basic' })).status, 200);
      const granted = await sw('basic', 'pro');
      assert.equal(granted.status, 400);
      assert.equal(granted.text, 'This subscription cannot be switched.');
      // Billing without a connected Stripe account.
      const billing = await api(server, 'GET', `/payments/billing/user/${user.id}`, user.client);
      assert.deepEqual(billing.body, { has_customer: false, default_payment_method: null });
    });

    it('switches a Stripe subscription to another plan of its line once the customer has a card Stripe accepts (a declined one: 402, nothing changes); billing shows the card', async () => {
      const server = get();
      clockNow = () => server.clock.now();
      const p = await connectedProject(server);
      const user = await projectUser(server, p);
      const stripeCustomer = `cus_switch_${p.projectId}`;
      const created = await buyThroughStripe(server, stripeApi, p, user, {
        productId: 'basic',
        priceId: 'monthly',
        webhookSecret: WEBHOOK_SECRET,
        stripeCustomer,
      });

      const billing = () => api(server, 'GET', `/payments/billing/user/${user.id}`, user.client);
      assert.deepEqual((await billing()).body, { has_customer: true, default_payment_method: null });
      const sw = () =>
        api(server, 'POST', `/payments/products/user/${user.id}/switch`, user.client, { from_product_id: 'basic', to_product_id: 'pro' });
      const noCard = await sw();
      assertKnownError(noCard, 'DEFAULT_PAYMENT_METHOD_REQUIRED', 400);
      assert.deepEqual(noCard.body, {
        code: 'DEFAULT_PAYMENT_METHOD_REQUIRED',
        details: { customer_type: 'user', customer_id: user.id },
        error: 'No default payment method is set for this customer.',
      });

      // Stripe's always-declined test card: the change's charge is refused, and nothing changes.
      stripeApi.paymentMethods.set(stripeCustomer, [
        {
          id: 'pm_card_0002',
          object: 'payment_method',
          type: 'card',
          card: { brand: 'visa', last4: '0002', exp_month: 12, exp_year: 2030 },
        },
      ]);
      const declined = await sw();
      assertKnownError(declined, 'STRIPE_CARD_DECLINED', 402);
      assert.deepEqual(declined.body, {
        code: 'STRIPE_CARD_DECLINED',
        details: { message: 'Your card was declined.', decline_code: 'generic_decline' },
        error: 'Your card was declined.',
      });
      const unchanged = await api(server, 'GET', `/payments/products/user/${user.id}`, user.client);
      assert.deepEqual(
        unchanged.body.items.map((i: { id: string; type: string }) => [i.id, i.type]),
        [['basic', 'subscription']],
      );

      stripeApi.paymentMethods.set(stripeCustomer, [
        { id: 'pm_card_1', object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } },
      ]);
      assert.deepEqual((await billing()).body, {
        has_customer: true,
        default_payment_method: { id: 'pm_card_1', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
      });
      const from = stripeApi.calls.length;
      const ok = await sw();
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body, { success: true });
      const update = stripeApi.calls
        .slice(from)
        .find((c) => c.method === 'POST' && c.path === `/v1/subscriptions/${created.subscriptionId}`)!;
      assert.equal(update.form['items[0][price_data][unit_amount]'], '200000');
      assert.equal(update.form['items[0][price_data][recurring][interval]'], 'month');
      assert.equal(update.form.default_payment_method, 'pm_card_1');
      assert.equal(update.form['metadata[productId]'], 'pro');
      const list = await api(server, 'GET', `/payments/products/user/${user.id}`, user.client);
      assert.deepEqual(
        list.body.items.map((i: { id: string; type: string }) => [i.id, i.type]),
        [['pro', 'subscription']],
      );
    });

    it('saves a card through a SetupIntent and makes it the default (setup-intent, set-default, billing)', async () => {
      const server = get();
      const p = await connectedProject(server);
      const user = await projectUser(server, p);
      const other = await projectUser(server, p);
      const billing = () => api(server, 'GET', `/payments/billing/user/${user.id}`, user.client);
      assert.deepEqual((await billing()).body, { has_customer: false, default_payment_method: null });

      const setup = await api(server, 'POST', `/payments/payment-method/user/${user.id}/setup-intent`, user.client, {});
      assert.equal(setup.status, 200, setup.text);
      assert.deepEqual(Object.keys(setup.body).sort(), ['client_secret', 'stripe_account_id']);
      assert.equal(setup.body.stripe_account_id, 'acct_gatehouse_test');
      const intent = [...stripeApi.setupIntents.values()].find((si) => si.client_secret === setup.body.client_secret)!;
      const customer = stripeApi.customers.get(intent.customer as string)!;
      assert.deepEqual(customer.metadata, { customerId: user.id, customerType: 'USER' });
      assert.equal(intent.usage, 'off_session');
      assert.deepEqual((await billing()).body, { has_customer: true, default_payment_method: null });

      const setDefault = (caller = user) =>
        api(server, 'POST', `/payments/payment-method/user/${caller.id}/set-default`, caller.client, { setup_intent_id: intent.id });
      const pending = await setDefault();
      assert.equal(pending.status, 400);
      assert.equal(pending.text, 'Setup intent has not succeeded.');
      const foreign = await setDefault(other);
      assert.equal(foreign.status, 403);
      assert.equal(foreign.text, 'Setup intent does not belong to this customer.');
      const otherSees = await api(server, 'POST', `/payments/payment-method/user/${user.id}/setup-intent`, other.client, {});
      assert.equal(otherSees.status, 403);
      assert.equal(otherSees.text, 'Clients can only manage their own payment method.');

      intent.status = 'succeeded';
      intent.payment_method = 'pm_saved_1';
      stripeApi.paymentMethods.set(customer.id as string, [
        {
          id: 'pm_saved_1',
          object: 'payment_method',
          type: 'card',
          card: { brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2031 },
        },
      ]);
      const done = await setDefault();
      assert.equal(done.status, 200, done.text);
      const card = { id: 'pm_saved_1', brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2031 };
      assert.deepEqual(done.body, { success: true, default_payment_method: card });
      assert.deepEqual(customer.invoice_settings, { default_payment_method: 'pm_saved_1' });
      assert.equal((customer.metadata as Record<string, string>).hasPaymentMethod, 'true');
      assert.deepEqual((await billing()).body, { has_customer: true, default_payment_method: card });
    });

    it("creates a Stripe embedded-components account session for the project's account (admin only)", async () => {
      const server = get();
      const bare = await createProject(server);
      const none = await api(server, 'POST', '/internal/payments/stripe-widgets/account-session', bare.admin, {});
      assert.equal(none.status, 400);
      assert.equal(none.text, 'Stripe account ID is not set');
      const p = await connectedProject(server);
      assertKnownError(
        await api(server, 'POST', '/internal/payments/stripe-widgets/account-session', p.server, {}),
        'INSUFFICIENT_ACCESS_TYPE',
        401,
      );
      const from = stripeApi.calls.length;
      const res = await api(server, 'POST', '/internal/payments/stripe-widgets/account-session', p.admin, {});
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body), ['client_secret']);
      assert.match(res.body.client_secret, /^accs_secret_/);
      const call = stripeApi.calls.slice(from).find((c) => c.path === '/v1/account_sessions')!;
      assert.equal(call.form.account, 'acct_gatehouse_test');
      assert.equal(call.form['components[payments][features][refund_management]'], 'true');
      assert.equal(call.form['components[payouts][features][external_account_collection]'], 'true');
      assert.equal(call.form['components[notification_banner][enabled]'], 'true');
    });
  },
  { stripeApiOverride: stripeApi.override },
);
