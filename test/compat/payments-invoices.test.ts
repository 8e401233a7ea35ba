import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { configure, PAYMENTS_CONFIG } from '../helpers/payments.ts';
import { sendStripeEvent, startStripeApi } from '../helpers/stripe-api.ts';
import { buyThroughStripe } from '../helpers/stripe-checkout.ts';

// Upstream https://github.com/stack-auth/stack-auth/blob/2f719903b181c20940159e9f3aaaa99bc3ec3b0f/apps/e2e/tests/backend/endpoints/api/v1/payments/invoices.test.ts
// (inline snapshots) and the handler of payments/invoices/[customer_type]/[customer_id]: invoices
// recorded from Stripe `invoice.*` events (upstream `upsertStripeInvoice`), newest first, paged by id.

const SECRET_KEY = 'sk_test_GatehouseInvoicesKey4242';
const WEBHOOK_SECRET = 'whsec_GatehouseInvoicesSecret';
let clockNow = () => Date.now();
const stripeApi = await startStripeApi({ secretKey: SECRET_KEY, now: () => clockNow() });
after(() => stripeApi.close());

const EMPTY = { is_paginated: true, items: [], pagination: { next_cursor: null } };

function invoiceEvent(id: string, type: string, invoice: Record<string, unknown>, subscription: string) {
  return {
    id,
    type,
    data: {
      object: {
        object: 'invoice',
        lines: { object: 'list', data: [{ object: 'line_item', parent: { subscription_item_details: { subscription } } }] },
        ...invoice,
      },
    },
  };
}

describeWithServer(
  'payments invoices as upstream answers them',
  (get) => {
    it('answers an empty page without Stripe, and a plain 403 for another user', async () => {
      const server = get();
      const p = await createProject(server);
      const user = await projectUser(server, p);
      const other = await projectUser(server, p);
      const mine = await api(server, 'GET', `/payments/invoices/user/${user.id}`, user.client);
      assert.equal(mine.status, 200, mine.text);
      assert.deepEqual(mine.body, EMPTY);
      const foreign = await api(server, 'GET', `/payments/invoices/user/${other.id}`, user.client);
      assert.equal(foreign.status, 403);
      assert.equal(foreign.text, 'Clients can only manage their own billing.');
      assert.deepEqual((await api(server, 'GET', `/payments/invoices/user/${other.id}`, p.server)).body, EMPTY);
    });

    it('lists the invoices Stripe sent for a subscription, newest first, paged by cursor', async () => {
      const server = get();
      clockNow = () => server.clock.now();
      const p = await createProject(server);
      await configure(server, p.admin, { ...PAYMENTS_CONFIG, 'payments.testMode': false });
      const keys = await api(server, 'PUT', '/internal/payments/stripe/keys', p.admin, {
        secret_key: SECRET_KEY,
        webhook_secret: WEBHOOK_SECRET,
      });
      assert.equal(keys.status, 200, keys.text);
      const user = await projectUser(server, p);
      const { subscriptionId } = await buyThroughStripe(server, stripeApi, p, user, {
        productId: 'pro',
        priceId: 'monthly',
        webhookSecret: WEBHOOK_SECRET,
        stripeCustomer: `cus_inv_${p.projectId}`,
      });
      const send = (event: Record<string, unknown>) => sendStripeEvent(server, p.projectId, event, WEBHOOK_SECRET);
      const first = `in_first_${p.projectId}`;
      assert.equal(
        (
          await send(
            invoiceEvent(
              `evt_a_${p.projectId}`,
              'invoice.created',
              { id: first, billing_reason: 'subscription_create', status: 'draft', total: 999, hosted_invoice_url: null },
              subscriptionId!,
            ),
          )
        ).status,
        200,
      );
      const firstSeen = server.clock.now();
      server.clock.advance(60_000);
      await send(
        invoiceEvent(
          `evt_b_${p.projectId}`,
          'invoice.paid',
          {
            id: first,
            billing_reason: 'subscription_create',
            status: 'paid',
            total: 999,
            hosted_invoice_url: 'https://invoice.stripe.com/i/first',
          },
          subscriptionId!,
        ),
      );
      server.clock.advance(60_000);
      const renewedAt = server.clock.now();
      await send(
        invoiceEvent(
          `evt_c_${p.projectId}`,
          'invoice.finalized',
          {
            id: `in_second_${p.projectId}`,
            billing_reason: 'subscription_cycle',
            status: 'open',
            hosted_invoice_url: 'https://invoice.stripe.com/i/second',
          },
          subscriptionId!,
        ),
      );
      // An invoice of a subscription Gatehouse does not know is not listed.
      await send(
        invoiceEvent(
          `evt_d_${p.projectId}`,
          'invoice.created',
          { id: `in_other_${p.projectId}`, status: 'draft', total: 5 },
          'sub_unknown',
        ),
      );

      const list = (query = '') => api(server, 'GET', `/payments/invoices/user/${user.id}${query}`, user.client);
      const all = await list();
      assert.equal(all.status, 200, all.text);
      assert.deepEqual(all.body, {
        is_paginated: true,
        items: [
          { created_at_millis: renewedAt, status: 'open', amount_total: 0, hosted_invoice_url: 'https://invoice.stripe.com/i/second' },
          { created_at_millis: firstSeen, status: 'paid', amount_total: 999, hosted_invoice_url: 'https://invoice.stripe.com/i/first' },
        ],
        pagination: { next_cursor: null },
      });
      const page1 = await list('?limit=1');
      assert.equal(page1.body.items.length, 1);
      assert.equal(page1.body.items[0].status, 'open');
      assert.equal(typeof page1.body.pagination.next_cursor, 'string');
      const page2 = await list(`?limit=1&cursor=${page1.body.pagination.next_cursor}`);
      assert.deepEqual(
        page2.body.items.map((i: { status: string }) => i.status),
        ['paid'],
      );
      const bad = await list('?cursor=00000000-0000-4000-8000-000000000000');
      assert.equal(bad.status, 400);
      assert.equal(bad.text, 'Invalid cursor');
    });
  },
  { stripeApiOverride: stripeApi.override },
);
