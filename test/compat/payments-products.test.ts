import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { configure } from '../helpers/payments.ts';

// Upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/payments/products.test.ts
// "should grant configured subscription product and expose it via listing" (inline snapshots).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeWithServer('payments products as upstream answers them', (get) => {
  it("grants a configured subscription product ({subscription_id, success}) and lists it with upstream's fields", async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, {
      'payments.products.pro-plan': {
        displayName: 'Pro Plan',
        customerType: 'user',
        serverOnly: false,
        stackable: false,
        prices: { monthly: { USD: '1000', interval: [1, 'month'] } },
        includedItems: {},
      },
    });
    const user = await projectUser(server, p);
    const grant = await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'pro-plan' });
    assert.equal(grant.status, 200, grant.text);
    assert.deepEqual(Object.keys(grant.body).sort(), ['subscription_id', 'success']);
    assert.match(grant.body.subscription_id, UUID);
    assert.equal(grant.body.success, true);
    const list = await api(server, 'GET', `/payments/products/user/${user.id}`, user.client);
    assert.equal(list.status, 200, list.text);
    const item = list.body.items[0];
    assert.equal(typeof item.subscription.current_period_end, 'string');
    assert.match(item.subscription.subscription_id, UUID);
    assert.deepEqual(
      {
        ...list.body,
        items: [{ ...item, subscription: { ...item.subscription, current_period_end: '<stripped>', subscription_id: '<stripped>' } }],
      },
      {
        is_paginated: true,
        items: [
          {
            id: 'pro-plan',
            product: {
              client_metadata: null,
              client_read_only_metadata: null,
              customer_type: 'user',
              display_name: 'Pro Plan',
              included_items: {},
              prices: { monthly: { USD: '1000', interval: [1, 'month'] } },
              server_metadata: null,
              server_only: false,
              stackable: false,
            },
            quantity: 1,
            subscription: {
              cancel_at_period_end: false,
              current_period_end: '<stripped>',
              is_cancelable: true,
              subscription_id: '<stripped>',
            },
            type: 'subscription',
          },
        ],
        pagination: { next_cursor: null },
      },
    );
  });

  it('answers server_metadata to every caller as upstream does, its value only to server and admin callers', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, {
      'payments.products.vip': {
        displayName: 'VIP',
        customerType: 'user',
        prices: { once: { USD: '5' } },
        includedItems: {},
        serverMetadata: { tier: 'secret' },
      },
    });
    const user = await projectUser(server, p);
    assert.equal((await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'vip' })).status, 200);
    const asClient = await api(server, 'GET', `/payments/products/user/${user.id}`, user.client);
    assert.equal(asClient.body.items[0].product.server_metadata, null);
    const asServer = await api(server, 'GET', `/payments/products/user/${user.id}`, p.server);
    assert.deepEqual(asServer.body.items[0].product.server_metadata, { tier: 'secret' });
  });
});
