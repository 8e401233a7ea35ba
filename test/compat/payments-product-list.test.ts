import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { configure, PAYMENTS_CONFIG } from '../helpers/payments.ts';

// Upstream https://github.com/stack-auth/stack-auth/blob/2f719903b181c20940159e9f3aaaa99bc3ec3b0f/apps/backend/src/app/api/latest/payments/products/%5Bcustomer_type%5D/%5Bcustomer_id%5D/route.ts
// (GET): one entry per product id, quantities summed, sorted by id, `switch_options` for product
// lines, cursor/limit paging and a plain 400 "Invalid cursor".

describeWithServer('payments product listing as upstream pages it', (get) => {
  it('lists one entry per product id with summed quantities, sorted, with switch options and paging', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const user = await projectUser(server, p);
    const grant = (body: object) => api(server, 'POST', `/payments/products/user/${user.id}`, p.server, body);
    assert.equal((await grant({ product_id: 'pack', quantity: 2 })).status, 200);
    assert.equal((await grant({ product_id: 'pack', quantity: 3 })).status, 200);
    assert.equal((await grant({ product_id: 'pro' })).status, 200);
    assert.equal((await grant({ product_id: 'secret' })).status, 200);

    const client = await api(server, 'GET', `/payments/products/user/${user.id}`, user.client);
    assert.equal(client.status, 200, client.text);
    assert.deepEqual(
      client.body.items.map((i: { id: string; quantity: number; type: string }) => [i.id, i.quantity, i.type]),
      [
        ['pack', 5, 'one_time'],
        ['pro', 1, 'subscription'],
      ],
    );
    const [pack, pro] = client.body.items;
    assert.equal('switch_options' in pack, false);
    assert.deepEqual(pro.switch_options, [
      {
        product_id: 'max',
        product: {
          display_name: 'Max',
          customer_type: 'user',
          stackable: false,
          server_only: false,
          included_items: { credits: { quantity: 500, repeat: 'never', expires: 'when-purchase-expires' } },
          client_metadata: null,
          client_read_only_metadata: null,
          server_metadata: null,
          prices: { monthly: { USD: '29.00', interval: [1, 'month'] } },
        },
      },
    ]);
    assert.deepEqual(client.body.pagination, { next_cursor: null });

    const serverList = await api(server, 'GET', `/payments/products/user/${user.id}?limit=2`, p.server);
    assert.deepEqual(
      serverList.body.items.map((i: { id: string }) => i.id),
      ['pack', 'pro'],
    );
    assert.deepEqual(serverList.body.pagination, { next_cursor: 'secret' });
    const rest = await api(server, 'GET', `/payments/products/user/${user.id}?limit=2&cursor=secret`, p.server);
    assert.deepEqual(
      rest.body.items.map((i: { id: string }) => i.id),
      ['secret'],
    );
    assert.deepEqual(rest.body.pagination, { next_cursor: null });

    const bad = await api(server, 'GET', `/payments/products/user/${user.id}?cursor=nope`, p.server);
    assert.equal(bad.status, 400);
    assert.equal(bad.text, 'Invalid cursor');
  });
});
