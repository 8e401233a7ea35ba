import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, it } from 'node:test';
import Stripe from 'stripe';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, type Caller } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { sendStripeEvent, startStripeApi } from '../helpers/stripe-api.ts';
import type { TestServer } from '../helpers/server.ts';
import { PAYMENTS_CONFIG, codeOf, configure } from '../helpers/payments.ts';

const SECRET_KEY = 'sk_test_GatehouseLoopbackKey4242';
const WEBHOOK_SECRET = 'whsec_GatehouseLoopbackWebhookSecret';
let clockNow = () => Date.now();
const stripeApi = await startStripeApi({ secretKey: SECRET_KEY, now: () => clockNow() });
after(() => stripeApi.close());

const signer = new Stripe(SECRET_KEY);
const sendEvent = (server: TestServer, projectId: string, event: Record<string, unknown>, secret = WEBHOOK_SECRET) =>
  sendStripeEvent(server, projectId, event, secret);

const credits = async (server: TestServer, caller: Caller, userId: string) =>
  (await api(server, 'GET', `/payments/items/user/${userId}/credits`, caller)).body.quantity as number;
const sec = (ms: number) => Math.floor(ms / 1000);
const DAY = 86_400_000;

describeWithServer(
  'payments through Stripe (a loopback Stripe API)',
  (get, dialect) => {
    async function connectedProject() {
      const server = get();
      clockNow = () => server.clock.now();
      const p = await createProject(server);
      await configure(server, p.admin, { ...PAYMENTS_CONFIG, 'payments.testMode': false });
      const set = await api(server, 'PUT', '/internal/payments/stripe/keys', p.admin, {
        secret_key: SECRET_KEY,
        webhook_secret: WEBHOOK_SECRET,
      });
      assert.equal(set.status, 200, set.text);
      return { server, p };
    }

    it("connects the project's own account; keys are sealed at rest and never answered", async (t) => {
      const { server, p } = await connectedProject();
      const info = await api(server, 'GET', '/internal/payments/stripe/account-info', p.admin);
      assert.deepEqual(info.body, {
        account_id: 'acct_gatehouse_test',
        charges_enabled: true,
        details_submitted: true,
        payouts_enabled: true,
        secret_key_hint: 'sk_test_…4242',
        webhook_configured: true,
        webhook_url: `${server.url}/api/v1/integrations/stripe/webhooks?project_id=${p.projectId}`,
      });
      for (const path of [
        '/internal/payments/stripe/account-info',
        '/internal/config',
        '/internal/config/override/environment',
        '/internal/projects/current',
      ]) {
        const res = await api(server, 'GET', path, p.admin);
        assert.ok(!res.text.includes(SECRET_KEY) && !res.text.includes(WEBHOOK_SECRET), path);
      }
      assertKnownError(await api(server, 'GET', '/internal/payments/stripe/account-info', p.server), 'INSUFFICIENT_ACCESS_TYPE', 401);
      assert.equal(
        (await api(server, 'PUT', '/internal/payments/stripe/keys', p.admin, { secret_key: 'sk_test_WrongKey0000' })).status,
        400,
      );
      assert.deepEqual((await api(server, 'POST', '/internal/payments/setup', p.admin, {})).body, {
        url: `${server.url}/projects/${p.projectId}/payments`,
      });
      if (dialect === 'sqlite') {
        const file = server.database.databaseUrl.replace(/^(sqlite|file):/, '');
        const bytes = Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
        assert.ok(bytes.includes(Buffer.from('sk_test_…4242')), 'the check reads the file the account is in');
        assert.equal(bytes.includes(Buffer.from(SECRET_KEY)), false);
        assert.equal(bytes.includes(Buffer.from(WEBHOOK_SECRET)), false);
      } else t.diagnostic('file check runs on SQLite');
      const other = await createProject(server);
      assertKnownError(
        await api(server, 'GET', '/internal/payments/stripe/account-info', other.admin),
        'STRIPE_ACCOUNT_INFO_NOT_FOUND',
        404,
      );
    });

    it('checkout completed → purchase granted; invoice paid → renewal; subscription deleted → access removed; a replayed event changes nothing', async () => {
      const { server, p } = await connectedProject();
      const user = await projectUser(server, p);
      const code = codeOf(
        (
          await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
            customer_type: 'user',
            customer_id: user.id,
            product_id: 'pro',
          })
        ).body.url,
      );
      assert.equal((await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: code })).body.charges_enabled, true);
      const before = stripeApi.calls.length;
      const session = await api(server, 'POST', '/payments/purchases/purchase-session', {}, { full_code: code, price_id: 'monthly' });
      assert.equal(session.status, 200, session.text);
      assert.match(session.body.checkout_url, /^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_test_/);
      // The line item Stripe saw is the configured price: 9.99 USD a month.
      const created = stripeApi.calls.slice(before).find((c) => c.path === '/v1/checkout/sessions')!;
      assert.equal(created.authorization, `Bearer ${SECRET_KEY}`);
      assert.equal(created.form.mode, 'subscription');
      assert.equal(created.form['line_items[0][price_data][unit_amount]'], '999');
      assert.equal(created.form['line_items[0][price_data][currency]'], 'usd');
      assert.equal(created.form['line_items[0][price_data][recurring][interval]'], 'month');
      assert.equal(created.form['line_items[0][quantity]'], '1');
      const subscriptionId = (created as { subscriptionId?: string }).subscriptionId!;
      assert.equal(await credits(server, user.client, user.id), 0);

      const completed = {
        id: 'evt_checkout_1',
        type: 'checkout.session.completed',
        data: {
          object: {
            id: session.body.session_id,
            object: 'checkout.session',
            mode: 'subscription',
            payment_status: 'paid',
            status: 'complete',
            customer: 'cus_1',
            subscription: subscriptionId,
            metadata: Object.fromEntries(
              Object.entries(created.form)
                .filter(([k]) => k.startsWith('metadata['))
                .map(([k, v]) => [k.slice(9, -1), v]),
            ),
          },
        },
      };
      const first = await sendEvent(server, p.projectId, completed);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.body, { received: true });
      assert.equal(await credits(server, user.client, user.id), 100);
      const products = await api(server, 'GET', `/payments/products/user/${user.id}`, user.client);
      assert.deepEqual(
        products.body.items.map((i: any) => i.id),
        ['pro'],
      );
      const periodEnd = Date.parse(products.body.items[0].subscription.current_period_end);
      assert.equal(sec(periodEnd), sec(server.clock.now()) + 30 * 86_400);

      // The same event again, and the same session under another event id: nothing changes.
      assert.equal((await sendEvent(server, p.projectId, completed)).status, 200);
      assert.equal((await sendEvent(server, p.projectId, { ...completed, id: 'evt_checkout_1_again' })).status, 200);
      assert.equal(await credits(server, user.client, user.id), 100);
      const tx = await api(server, 'GET', '/internal/payments/transactions', p.admin);
      assert.equal(tx.body.transactions.length, 1);
      assert.deepEqual(tx.body.transactions[0].entries[1], {
        type: 'money_transfer',
        adjusted_transaction_id: null,
        adjusted_entry_index: null,
        customer_type: 'user',
        customer_id: user.id,
        charged_amount: { USD: '9.99' },
        net_amount: { USD: '9.99' },
      });
      assert.equal(tx.body.transactions[0].test_mode, false);

      // Renewal: Stripe bills the next month; past the first period the plan and its credits remain.
      const nextStart = sec(periodEnd);
      const nextEnd = nextStart + 30 * 86_400;
      const paid = {
        id: 'evt_invoice_2',
        type: 'invoice.paid',
        data: {
          object: {
            id: 'in_2',
            object: 'invoice',
            billing_reason: 'subscription_cycle',
            subscription: subscriptionId,
            lines: { object: 'list', data: [{ period: { start: nextStart, end: nextEnd } }] },
          },
        },
      };
      assert.equal((await sendEvent(server, p.projectId, paid)).status, 200);
      // (Access tokens expire over 35 days: read with a secret server key from here on.)
      const keyed: Caller = {
        projectId: p.projectId,
        accessType: 'server',
        secretServerKey: (await createProjectKeys(server, p.admin)).secretServerKey,
      };
      server.clock.advance(35 * DAY);
      assert.equal(await credits(server, keyed, user.id), 100);
      const renewed = await api(server, 'GET', `/payments/products/user/${user.id}`, keyed);
      assert.equal(sec(Date.parse(renewed.body.items[0].subscription.current_period_end)), nextEnd);

      // Cancellation: the subscription ends now; the plan and its expiring credits are gone.
      const deleted = {
        id: 'evt_sub_deleted',
        type: 'customer.subscription.deleted',
        data: { object: { id: subscriptionId, object: 'subscription', status: 'canceled', ended_at: sec(server.clock.now()) } },
      };
      assert.equal((await sendEvent(server, p.projectId, deleted)).status, 200);
      assert.equal(await credits(server, keyed, user.id), 0);
      assert.deepEqual((await api(server, 'GET', `/payments/products/user/${user.id}`, keyed)).body.items, []);
      // Replaying the renewal after the cancellation changes nothing (the event id was applied).
      assert.equal((await sendEvent(server, p.projectId, paid)).status, 200);
      assert.equal(await credits(server, keyed, user.id), 0);
    });

    it('a one-off purchase through Checkout, then a refund through Stripe revokes it; two refunds at once reach Stripe once', async () => {
      const { server, p } = await connectedProject();
      const user = await projectUser(server, p);
      const code = codeOf(
        (
          await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
            customer_type: 'user',
            customer_id: user.id,
            product_id: 'pack',
          })
        ).body.url,
      );
      const before = stripeApi.calls.length;
      const session = await api(
        server,
        'POST',
        '/payments/purchases/purchase-session',
        {},
        { full_code: code, price_id: 'once', quantity: 2 },
      );
      assert.equal(session.status, 200, session.text);
      const created = stripeApi.calls.slice(before).find((c) => c.path === '/v1/checkout/sessions')!;
      assert.equal(created.form.mode, 'payment');
      assert.equal(created.form['line_items[0][price_data][unit_amount]'], '400');
      assert.equal(created.form['line_items[0][quantity]'], '2');
      const metadata = Object.fromEntries(
        Object.entries(created.form)
          .filter(([k]) => k.startsWith('metadata['))
          .map(([k, v]) => [k.slice(9, -1), v]),
      );
      const event = {
        id: 'evt_pack',
        type: 'checkout.session.completed',
        data: {
          object: {
            id: session.body.session_id,
            object: 'checkout.session',
            mode: 'payment',
            payment_status: 'paid',
            payment_intent: 'pi_pack_1',
            customer: 'cus_2',
            metadata,
          },
        },
      };
      assert.equal((await sendEvent(server, p.projectId, event)).status, 200);
      assert.equal(await credits(server, user.client, user.id), 100);

      const purchase = (await api(server, 'GET', '/internal/payments/transactions', p.admin)).body.transactions[0];
      assert.deepEqual(purchase.entries[1].charged_amount, { USD: '8.00' });
      assert.equal(
        (
          await api(server, 'POST', '/internal/payments/transactions/refund', p.admin, {
            type: 'one-time-purchase',
            id: purchase.id,
            amount_usd: '9.00',
          })
        ).status,
        400,
      );
      // Two refunds at once (a double click): one reaches Stripe, the other is refused.
      const refundsBefore = stripeApi.calls.filter((c) => c.path === '/v1/refunds').length;
      const both = await Promise.all(
        [0, 1].map(() =>
          api(server, 'POST', '/internal/payments/transactions/refund', p.admin, {
            type: 'one-time-purchase',
            id: purchase.id,
            amount_usd: '8.00',
          }),
        ),
      );
      const refunded = both.find((r) => r.status === 200)!;
      assert.deepEqual(refunded.body, { success: true, refund_transaction_id: `${purchase.id}:refund` });
      assertKnownError(both.find((r) => r !== refunded)!, 'ONE_TIME_PURCHASE_ALREADY_REFUNDED', 400);
      assert.equal(stripeApi.calls.filter((c) => c.path === '/v1/refunds').length - refundsBefore, 1);
      const refundCall = stripeApi.calls.filter((c) => c.path === '/v1/refunds').at(-1)!;
      assert.equal(refundCall.form.payment_intent, 'pi_pack_1');
      assert.equal(refundCall.form.amount, '800');
      assert.equal(await credits(server, user.client, user.id), 0);
      assertKnownError(
        await api(server, 'POST', '/internal/payments/transactions/refund', p.admin, { type: 'one-time-purchase', id: purchase.id }),
        'ONE_TIME_PURCHASE_ALREADY_REFUNDED',
        400,
      );
      assert.deepEqual(
        (await api(server, 'GET', '/internal/payments/transactions?type=refund', p.admin)).body.transactions.map(
          (t: any) => t.entries[0].type,
        ),
        ['product_revocation'],
      );
    });

    it('cancelling a Stripe subscription cancels it in Stripe at once; metrics count the revenue', async () => {
      const { server, p } = await connectedProject();
      const user = await projectUser(server, p);
      const code = codeOf(
        (
          await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
            customer_type: 'user',
            customer_id: user.id,
            product_id: 'pro',
          })
        ).body.url,
      );
      const before = stripeApi.calls.length;
      const session = await api(server, 'POST', '/payments/purchases/purchase-session', {}, { full_code: code, price_id: 'monthly' });
      const created = stripeApi.calls.slice(before).find((c) => c.path === '/v1/checkout/sessions')! as {
        form: Record<string, string>;
        subscriptionId?: string;
      };
      const metadata = Object.fromEntries(
        Object.entries(created.form)
          .filter(([k]) => k.startsWith('metadata['))
          .map(([k, v]) => [k.slice(9, -1), v]),
      );
      const event = {
        id: 'evt_sub_cancel_flow',
        type: 'checkout.session.completed',
        data: {
          object: {
            id: session.body.session_id,
            object: 'checkout.session',
            mode: 'subscription',
            payment_status: 'paid',
            subscription: created.subscriptionId,
            customer: 'cus_3',
            metadata,
          },
        },
      };
      assert.equal((await sendEvent(server, p.projectId, event)).status, 200);

      const metrics = (await api(server, 'GET', '/internal/metrics', p.admin)).body.payments_overview;
      assert.equal(metrics.revenue_cents, 999);
      assert.equal(metrics.mrr_cents, 999);
      assert.equal(metrics.active_subscription_count, 1);
      assert.deepEqual(metrics.subscriptions_by_status, { active: 1 });
      assert.equal(metrics.total_orders, 1);
      assert.equal(metrics.checkout_conversion_rate, 1);
      assert.equal(metrics.daily_subscriptions.at(-1).activity, 1);

      const cancel = await api(server, 'DELETE', `/payments/products/user/${user.id}/pro`, user.client);
      assert.deepEqual(cancel.body, { success: true });
      // As upstream: canceled in Stripe at once (`DELETE /v1/subscriptions/{id}`), access ends now.
      assert.ok(stripeApi.calls.some((c) => c.path === `/v1/subscriptions/${created.subscriptionId}` && c.method === 'DELETE'));
      const products = await api(server, 'GET', `/payments/products/user/${user.id}`, user.client);
      assert.deepEqual(products.body.items, []);
      assert.equal(await credits(server, user.client, user.id), 0);
      const notOwned = await api(server, 'DELETE', `/payments/products/user/${user.id}/max`, user.client);
      assert.equal(notOwned.status, 400);
      assert.equal(notOwned.text, 'Customer does not have this product.');
    });

    it('refuses events without a valid signature: missing, wrong secret, tampered payload, unknown project', async () => {
      const { server, p } = await connectedProject();
      const event = { id: 'evt_x', type: 'customer.subscription.deleted', data: { object: { id: 'sub_x' } } };
      const wrong = await sendEvent(server, p.projectId, event, 'whsec_SomeoneElsesSecret');
      assert.equal(wrong.status, 400);
      assert.equal(wrong.header, 'STRIPE_WEBHOOK_SIGNATURE_INVALID');
      const payload = JSON.stringify(event);
      const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      const post = (body: string, headers: Record<string, string>, projectId = p.projectId) =>
        fetch(`${server.url}/api/v1/integrations/stripe/webhooks?project_id=${projectId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
      assert.equal((await post(payload, {})).headers.get('x-stack-known-error'), 'STRIPE_WEBHOOK_SIGNATURE_INVALID');
      assert.equal(
        (await post(payload.replace('sub_x', 'sub_y'), { 'stripe-signature': header })).headers.get('x-stack-known-error'),
        'STRIPE_WEBHOOK_SIGNATURE_INVALID',
      );
      assert.equal(
        (await post(payload, { 'stripe-signature': header }, (await createProject(server)).projectId)).headers.get('x-stack-known-error'),
        'STRIPE_WEBHOOK_SIGNATURE_INVALID',
      );
      assert.equal((await post(payload, { 'stripe-signature': header })).status, 200);
    });

    it('turns test mode off by default once a Stripe account is connected (issue 27 finding 9)', async () => {
      const server = get();
      const p = await createProject(server);
      await configure(server, p.admin, { ...PAYMENTS_CONFIG, 'payments.publicTestMode': true });
      const user = await projectUser(server, p);
      const codeFor = async () =>
        codeOf(
          (
            await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
              customer_type: 'user',
              customer_id: user.id,
              product_id: 'pack',
            })
          ).body.url,
        );
      assert.equal(
        (await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: await codeFor() })).body.test_mode,
        true,
      );
      assert.equal(
        (await api(server, 'PUT', '/internal/payments/stripe/keys', p.admin, { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET }))
          .status,
        200,
      );
      const code = await codeFor();
      assert.equal((await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: code })).body.test_mode, false);
      const free = await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'once' });
      assert.equal(free.status, 400, free.text);
      assert.equal(await credits(server, user.client, user.id), 0);
      // The owner may still choose test mode explicitly.
      await configure(server, p.admin, { 'payments.testMode': true });
      assert.equal(
        (await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'once' })).status,
        200,
      );
      assert.equal(await credits(server, user.client, user.id), 50);
    });
  },
  { stripeApiOverride: stripeApi.override },
);
