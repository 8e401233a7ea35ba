import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api } from '../helpers/api.ts';
import { PAYMENTS_CONFIG } from '../helpers/payments.ts';
import { sendStripeEvent, startStripeApi } from '../helpers/stripe-api.ts';
import { buyThroughStripe } from '../helpers/stripe-checkout.ts';
import { SDKS, sdkApps } from './helpers.ts';

// Purchases, plan switches, billing and invoices through the official SDK 2.8.108 (the methods a
// customer object has: createCheckoutUrl, listProducts, getBilling, switchSubscription,
// listInvoices, cancelSubscription), against the loopback Stripe API.

const SECRET_KEY = 'sk_test_GatehouseSdkCheckout4242';
const WEBHOOK_SECRET = 'whsec_GatehouseSdkCheckout';
const PASSWORD = 'interop password 1';
let clockNow = () => Date.now();
const stripeApi = await startStripeApi({ secretKey: SECRET_KEY, now: () => clockNow() });
after(() => stripeApi.close());

const sdk = SDKS[0];

describeWithServer(
  `payments checkout, switch and invoices through ${sdk.name}`,
  (get) => {
    it('buys a plan through Stripe from createCheckoutUrl, switches it, lists its invoices and cancels it', async () => {
      const server = get();
      clockNow = () => server.clock.now();
      const { project, serverApp, clientApp } = await sdkApps(server, sdk.module);
      const patch = await api(server, 'PATCH', '/internal/config/override/environment', project.admin, {
        config_override_string: JSON.stringify({ ...PAYMENTS_CONFIG, 'payments.testMode': false }),
      });
      assert.equal(patch.status, 200, patch.text);
      const keys = await api(server, 'PUT', '/internal/payments/stripe/keys', project.admin, {
        secret_key: SECRET_KEY,
        webhook_secret: WEBHOOK_SECRET,
      });
      assert.equal(keys.status, 200, keys.text);
      await serverApp.createUser({ primaryEmail: 'buyer@example.com', password: PASSWORD, primaryEmailAuthEnabled: true });
      const app = clientApp();
      const signIn = await app.signInWithCredential({ email: 'buyer@example.com', password: PASSWORD, noRedirect: true });
      assert.equal(signIn.status, 'ok', JSON.stringify(signIn));
      const user = await app.getUser();

      // Purchase: the SDK's checkout URL, then the hosted page's Stripe Checkout and its webhook.
      const url: string = await user.createCheckoutUrl({ productId: 'pro' });
      assert.match(url, /\/purchase\/[a-z0-9-_]+/);
      const stripeCustomer = `cus_sdk_${project.projectId}`;
      const { subscriptionId } = await buyThroughStripe(
        server,
        stripeApi,
        project,
        { id: user.id },
        {
          productId: 'pro',
          priceId: 'monthly',
          webhookSecret: WEBHOOK_SECRET,
          stripeCustomer,
          purchaseUrl: url,
        },
      );
      const plans = async () =>
        (await user.listProducts()).map((p: { id: string; type: string; quantity: number }) => [p.id, p.type, p.quantity]);
      assert.deepEqual(await plans(), [['pro', 'subscription', 1]]);

      // Switch: refused without a card (the server's known error), done with one.
      await assert.rejects(user.switchSubscription({ fromProductId: 'pro', toProductId: 'max' }), /default payment method/i);
      stripeApi.paymentMethods.set(stripeCustomer, [
        { id: 'pm_sdk', object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 } },
      ]);
      const billing = await user.getBilling();
      assert.deepEqual(billing, {
        hasCustomer: true,
        defaultPaymentMethod: { id: 'pm_sdk', brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 },
      });
      const from = stripeApi.calls.length;
      await user.switchSubscription({ fromProductId: 'pro', toProductId: 'max' });
      const update = stripeApi.calls.slice(from).find((c) => c.method === 'POST' && c.path === `/v1/subscriptions/${subscriptionId}`)!;
      assert.equal(update.form['metadata[productId]'], 'max');
      assert.deepEqual(await plans(), [['max', 'subscription', 1]]);

      // Invoices Stripe sent for the subscription, newest first, paged.
      const invoice = (n: number, status: string, total: number) => ({
        id: `evt_sdk_inv_${n}_${project.projectId}`,
        type: 'invoice.finalized',
        data: {
          object: {
            id: `in_sdk_${n}_${project.projectId}`,
            object: 'invoice',
            billing_reason: n === 1 ? 'subscription_create' : 'subscription_update',
            status,
            total,
            hosted_invoice_url: `https://invoice.stripe.com/i/sdk_${n}`,
            lines: {
              object: 'list',
              data: [{ object: 'line_item', parent: { subscription_item_details: { subscription: subscriptionId } } }],
            },
          },
        },
      });
      assert.equal((await sendStripeEvent(server, project.projectId, invoice(1, 'paid', 999), WEBHOOK_SECRET)).status, 200);
      server.clock.advance(1000);
      assert.equal((await sendStripeEvent(server, project.projectId, invoice(2, 'open', 1901), WEBHOOK_SECRET)).status, 200);
      const invoices = await user.listInvoices();
      assert.deepEqual(
        invoices.map((i: { status: string; amountTotal: number; hostedInvoiceUrl: string; createdAt: Date }) => [
          i.status,
          i.amountTotal,
          i.hostedInvoiceUrl,
          i.createdAt instanceof Date,
        ]),
        [
          ['open', 1901, 'https://invoice.stripe.com/i/sdk_2', true],
          ['paid', 999, 'https://invoice.stripe.com/i/sdk_1', true],
        ],
      );
      assert.equal(invoices.nextCursor, null);
      const firstPage = await user.listInvoices({ limit: 1 });
      assert.equal(firstPage.length, 1);
      assert.equal(typeof firstPage.nextCursor, 'string');
      const secondPage = await user.listInvoices({ limit: 1, cursor: firstPage.nextCursor });
      assert.deepEqual(
        secondPage.map((i: { status: string }) => i.status),
        ['paid'],
      );

      // Cancel: canceled in Stripe at once.
      const beforeCancel = stripeApi.calls.length;
      await app.cancelSubscription({ productId: 'max' });
      assert.ok(stripeApi.calls.slice(beforeCancel).some((c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${subscriptionId}`));
      assert.deepEqual((await api(server, 'GET', `/payments/products/user/${user.id}`, project.server)).body.items, []);
    });
  },
  { stripeApiOverride: stripeApi.override },
);
