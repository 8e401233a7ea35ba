import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../../test/helpers/api.ts';
import { projectUser } from '../../test/helpers/project-user.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { PAYMENTS_CONFIG, codeOf, configure } from '../../test/helpers/payments.ts';

const credits = async (server: TestServer, caller: Caller, userId: string) =>
  (await api(server, 'GET', `/payments/items/user/${userId}/credits`, caller)).body.quantity as number;

describeWithServer('payments purchases and test mode', (get) => {
  it('create-purchase-url → validate-code → test-mode purchase grants the product and its included items', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const user = await projectUser(server, p);
    const created = await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
      customer_type: 'user',
      customer_id: user.id,
      product_id: 'pro',
      return_url: 'http://localhost:3000/done',
    });
    assert.equal(created.status, 200, created.text);
    const url = new URL(created.body.url);
    const code = codeOf(created.body.url);
    // The code in the path, as upstream's link has it (its e2e tests read it with /\/purchase\/([a-z0-9-_]+)/).
    assert.equal(url.origin + url.pathname, `${server.url}/projects/${p.projectId}/handler/purchase/${code}`);
    assert.equal(url.searchParams.get('return_url'), 'http://localhost:3000/done');
    assert.ok(code.startsWith(`${p.projectId}_`));

    const validated = await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: code });
    assert.equal(validated.status, 200, validated.text);
    assert.deepEqual(validated.body, {
      product: {
        display_name: 'Pro',
        customer_type: 'user',
        stackable: false,
        server_only: false,
        included_items: { credits: { quantity: 100, repeat: 'never', expires: 'when-purchase-expires' } },
        client_metadata: null,
        client_read_only_metadata: null,
        server_metadata: null,
        prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
      },
      stripe_account_id: '',
      project_id: p.projectId,
      project_logo_url: null,
      already_bought_non_stackable: false,
      conflicting_products: [],
      test_mode: true,
      charges_enabled: false,
    });

    assert.equal(await credits(server, user.client, user.id), 0);
    const bought = await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'monthly' });
    assert.equal(bought.status, 200, bought.text);
    assert.equal(bought.body.success, true);
    assert.equal(await credits(server, user.client, user.id), 100);
    const products = await api(server, 'GET', `/payments/products/user/${user.id}`, user.client);
    assert.deepEqual(
      products.body.items.map((i: any) => [i.id, i.type, i.quantity, i.subscription.is_cancelable]),
      [['pro', 'subscription', 1, true]],
    );
    assert.equal(products.body.items[0].product.server_metadata, null);

    // The code is used up; buying the same plan again is refused.
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'monthly' }),
      'VERIFICATION_CODE_ALREADY_USED',
      409,
    );
    const again = await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
      customer_type: 'user',
      customer_id: user.id,
      product_id: 'pro',
    });
    assert.equal(again.status, 400);

    // Switching within the product line replaces the plan; its credits follow.
    const upgrade = codeOf(
      (
        await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
          customer_type: 'user',
          customer_id: user.id,
          product_id: 'max',
        })
      ).body.url,
    );
    assert.deepEqual(
      (await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: upgrade })).body.conflicting_products,
      [{ product_id: 'pro', display_name: 'Pro' }],
    );
    assert.equal(
      (await api(server, 'POST', '/internal/payments/test-mode-purchase-session', p.admin, { full_code: upgrade, price_id: 'monthly' }))
        .status,
      200,
    );
    assert.equal(await credits(server, user.client, user.id), 500);
    assert.deepEqual(
      (await api(server, 'GET', `/payments/products/user/${user.id}`, p.server)).body.items.map((i: any) => i.id),
      ['max'],
    );

    // Cancelling a test-mode subscription (the account-settings Cancel button) marks it canceled; as
    // upstream, the customer keeps it, listed as one_time, until its period ends.
    const other = await projectUser(server, p);
    const trial = codeOf(
      (
        await api(server, 'POST', '/payments/purchases/create-purchase-url', other.client, {
          customer_type: 'user',
          customer_id: other.id,
          product_id: 'pro',
        })
      ).body.url,
    );
    assert.equal(
      (await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: trial, price_id: 'monthly' })).status,
      200,
    );
    assert.equal((await api(server, 'DELETE', `/payments/products/user/${other.id}/pro`, user.client)).status, 403);
    assert.deepEqual((await api(server, 'DELETE', `/payments/products/user/${other.id}/pro`, other.client)).body, { success: true });
    assert.equal(await credits(server, other.client, other.id), 100);
    assert.deepEqual(
      (await api(server, 'GET', `/payments/products/user/${other.id}`, other.client)).body.items.map((i: any) => [
        i.id,
        i.type,
        i.subscription,
      ]),
      [['pro', 'one_time', null]],
    );

    // A stackable one-off pack, bought three at once.
    const pack = codeOf(
      (
        await api(server, 'POST', '/payments/purchases/create-purchase-url', p.server, {
          customer_type: 'user',
          customer_id: user.id,
          product_id: 'pack',
        })
      ).body.url,
    );
    assert.equal(
      (await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: pack, price_id: 'once', quantity: 3 })).status,
      200,
    );
    assert.equal(await credits(server, user.client, user.id), 650);

    // Transactions list them with the configured prices, flagged test mode (no money moved).
    const tx = await api(server, 'GET', '/internal/payments/transactions', p.admin);
    assert.equal(tx.status, 200, tx.text);
    assert.deepEqual(
      tx.body.transactions.map((t: any) => [t.type, t.test_mode, t.entries.map((e: any) => e.type).join('+')]),
      [
        ['purchase', true, 'product_grant+item_quantity_change'],
        ['purchase', true, 'product_grant+item_quantity_change'],
        ['purchase', true, 'product_grant+item_quantity_change'],
        ['purchase', true, 'product_grant+item_quantity_change'],
      ],
    );
    const subscription = tx.body.transactions.find((t: any) => t.entries[0].subscription_id !== undefined && t.customer_id === user.id);
    assertKnownError(
      await api(server, 'POST', '/internal/payments/transactions/refund', p.admin, { type: 'subscription', id: subscription.id }),
      'SUBSCRIPTION_INVOICE_NOT_FOUND',
      404,
    );
    assertKnownError(
      await api(server, 'POST', '/internal/payments/transactions/refund', p.admin, { type: 'one-time-purchase', id: subscription.id }),
      'ONE_TIME_PURCHASE_NOT_FOUND',
      404,
    );
  });

  it('money never comes from client input: amounts and prices in requests are refused or ignored', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const user = await projectUser(server, p);
    // A price or amount in create-purchase-url is not part of the request shape.
    for (const extra of [{ price: '0.01' }, { amount: 1 }, { prices: { monthly: { USD: '0.01' } } }]) {
      assertKnownError(
        await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
          customer_type: 'user',
          customer_id: user.id,
          product_id: 'pack',
          ...extra,
        }),
        'SCHEMA_ERROR',
        400,
      );
    }
    // A client may not define its own product (with its own prices), nor buy a server-only one.
    const inline = await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
      customer_type: 'user',
      customer_id: user.id,
      product_inline: {
        display_name: 'Cheap',
        customer_type: 'user',
        prices: { p: { USD: '0.01' } },
        included_items: { credits: { quantity: 1000000 } },
      },
    });
    assert.equal(inline.status, 400);
    assert.match(inline.text, /Cannot specify product_inline when calling from client/);
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
        customer_type: 'user',
        customer_id: user.id,
        product_id: 'secret',
      }),
      'PRODUCT_DOES_NOT_EXIST',
      400,
    );
    // The purchase page's calls take a price id and a quantity, never an amount.
    const code = codeOf(
      (
        await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
          customer_type: 'user',
          customer_id: user.id,
          product_id: 'pack',
        })
      ).body.url,
    );
    for (const extra of [{ amount: 1 }, { unit_amount: 1 }, { price: { USD: '0.01' } }, { currency: 'JPY' }]) {
      assertKnownError(
        await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'once', ...extra }),
        'SCHEMA_ERROR',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/payments/purchases/purchase-session', {}, { full_code: code, price_id: 'once', ...extra }),
        'SCHEMA_ERROR',
        400,
      );
    }
    assert.equal(
      (await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'nope' })).status,
      400,
    );
    // Config changes after the URL was made do not reach that purchase either way; the record holds the configured price.
    assert.equal(
      (await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'once', quantity: 2 })).status,
      200,
    );
    const purchase = (await api(server, 'GET', '/internal/payments/transactions', p.admin)).body.transactions[0];
    assert.equal(purchase.entries[0].price_id, 'once');
    assert.deepEqual(purchase.entries[0].product.prices, { once: { USD: '4.00' } });
  });

  it('refuses what upstream refuses: other customers, wrong customer type, blocked purchases, bad codes, test mode off', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const alice = await projectUser(server, p);
    const bob = await projectUser(server, p);
    assert.equal(
      (
        await api(server, 'POST', '/payments/purchases/create-purchase-url', alice.client, {
          customer_type: 'user',
          customer_id: bob.id,
          product_id: 'pro',
        })
      ).status,
      403,
    );
    const mismatch = await api(server, 'POST', '/payments/purchases/create-purchase-url', p.server, {
      customer_type: 'team',
      customer_id: 'x',
      product_id: 'pro',
    });
    assertKnownError(mismatch, 'PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH', 400);
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/create-purchase-url', p.server, {
        customer_type: 'user',
        customer_id: alice.id,
        product_id: 'credits',
      }),
      'PRODUCT_DOES_NOT_EXIST',
      400,
    );
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/create-purchase-url', p.server, {
        customer_type: 'user',
        customer_id: alice.id,
        product_id: 'pro',
        return_url: 'https://evil.example.com/',
      }),
      'REDIRECT_URL_NOT_WHITELISTED',
      400,
    );
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: `${p.projectId}_nope` }),
      'VERIFICATION_CODE_NOT_FOUND',
      404,
    );
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: 'garbage' }),
      'VERIFICATION_CODE_NOT_FOUND',
      404,
    );

    const code = codeOf(
      (
        await api(server, 'POST', '/payments/purchases/create-purchase-url', alice.client, {
          customer_type: 'user',
          customer_id: alice.id,
          product_id: 'pro',
        })
      ).body.url,
    );
    // No Stripe account: a real payment cannot start.
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/purchase-session', {}, { full_code: code, price_id: 'monthly' }),
      'STRIPE_ACCOUNT_INFO_NOT_FOUND',
      404,
    );
    // Another project's admin cannot complete this code.
    const other = await createProject(server);
    assert.equal(
      (await api(server, 'POST', '/internal/payments/test-mode-purchase-session', other.admin, { full_code: code, price_id: 'monthly' }))
        .status,
      400,
    );
    // Test mode off: the public test-mode route refuses.
    await configure(server, p.admin, { 'payments.testMode': false });
    assert.equal(
      (await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'monthly' })).status,
      400,
    );
    assert.equal((await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: code })).body.test_mode, false);
    await configure(server, p.admin, { 'payments.blockNewPurchases': true });
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/create-purchase-url', alice.client, {
        customer_type: 'user',
        customer_id: alice.id,
        product_id: 'pack',
      }),
      'NEW_PURCHASES_BLOCKED',
      403,
    );
    // Codes expire after 24 hours.
    server.clock.advance(24 * 60 * 60 * 1000 + 1);
    assertKnownError(
      await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: code }),
      'VERIFICATION_CODE_EXPIRED',
      400,
    );
  });

  it("grants a product through the server API (the SDK's grantProduct) and lists it", async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const user = await projectUser(server, p);
    assert.equal(
      (await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'pack', quantity: 2 })).status,
      200,
    );
    assert.equal(await credits(server, p.server, user.id), 100);
    assertKnownError(
      await api(server, 'POST', `/payments/products/user/${user.id}`, user.client, { product_id: 'pack' }),
      'INSUFFICIENT_ACCESS_TYPE',
      401,
    );
  });
});
