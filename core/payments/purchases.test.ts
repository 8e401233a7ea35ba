import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KnownError, StatusError, type Credentials, type InvokeInput, type StatusKind } from '../index.ts';
import { createCoreProject, createCoreUser, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { PAYMENTS_CONFIG, codeOf } from '../../test/helpers/payments-config.ts';

/**
 * Purchases and test mode (upstream `payments/purchases/*`, `payments/products/*`,
 * `internal/payments/*`), in-process (test/helpers/core-client.ts).
 */

/** Sets payments config through the environment-level override, as upstream's e2e tests do. */
const configure = (t: TestCore, admin: Credentials, config: Record<string, unknown>) =>
  t.call('config.updateOverride', admin, {
    params: { level: 'environment' },
    body: { config_override_string: JSON.stringify(config) },
  });

const credits = async (t: TestCore, caller: Credentials, userId: string) =>
  (
    await t.call<{ quantity: number }>('payments.getItem', caller, {
      params: { customer_type: 'user', customer_id: userId, item_id: 'credits' },
    })
  ).quantity;

const products = (t: TestCore, caller: Credentials, userId: string) =>
  t.call<{ items: any[] }>('payments.listCustomerProducts', caller, { params: { customer_type: 'user', customer_id: userId } });

/** A purchase URL's answer for `body` (customer, product, return URL). */
const purchaseUrl = (t: TestCore, caller: Credentials, body: Record<string, unknown>) =>
  t.call<{ url: string }>('payments.createPurchaseUrl', caller, { body });

/** The code of a new purchase URL for the user's `product_id`. */
const codeFor = async (t: TestCore, caller: Credentials, userId: string, productId: string) =>
  codeOf((await purchaseUrl(t, caller, { customer_type: 'user', customer_id: userId, product_id: productId })).url);

/** The public test-mode purchase of the purchase page. */
const testPurchase = (t: TestCore, body: Record<string, unknown>) =>
  t.call<{ success: boolean }>('payments.testModePurchase', {}, { body });

/** The plain refusal kind the host answers with each HTTP status (server-bin/api/status.ts). */
const KIND_OF_STATUS: Record<number, StatusKind> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
};

/**
 * Runs an operation that must be refused with HTTP status `status`, as a known error of that
 * catalogue status or a plain refusal of that kind (the original HTTP test checked the status only).
 */
async function refusedWithStatus(t: TestCore, operationId: string, caller: Credentials, input: InvokeInput, status: number) {
  const error = await t.core.invoke(operationId, caller, input).then(
    () => assert.fail(`${operationId} answered instead of refusing with ${status}`),
    (e: unknown) => e,
  );
  if (error instanceof KnownError) assert.equal(error.status, status, `${operationId}: ${error.code}`);
  else if (error instanceof StatusError) assert.equal(error.kind, KIND_OF_STATUS[status], `${operationId}: ${error.message}`);
  else throw error;
  return error;
}

describeWithCore('payments purchases and test mode', (get) => {
  it('create-purchase-url → validate-code → test-mode purchase grants the product and its included items', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, PAYMENTS_CONFIG);
    const user = await createCoreUser(t, p);
    const created = await purchaseUrl(t, user.client, {
      customer_type: 'user',
      customer_id: user.id,
      product_id: 'pro',
      return_url: 'http://localhost:3000/done',
    });
    const url = new URL(created.url);
    const code = codeOf(created.url);
    // The code in the path, as upstream's link has it (its e2e tests read it with /\/purchase\/([a-z0-9-_]+)/).
    assert.equal(url.origin + url.pathname, `http://127.0.0.1:1/projects/${p.projectId}/handler/purchase/${code}`);
    assert.equal(url.searchParams.get('return_url'), 'http://localhost:3000/done');
    assert.ok(code.startsWith(`${p.projectId}_`));

    const validated = await t.call('payments.validateCode', {}, { body: { full_code: code } });
    assert.deepEqual(validated, {
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

    assert.equal(await credits(t, user.client, user.id), 0);
    assert.equal((await testPurchase(t, { full_code: code, price_id: 'monthly' })).success, true);
    assert.equal(await credits(t, user.client, user.id), 100);
    const bought = await products(t, user.client, user.id);
    assert.deepEqual(
      bought.items.map((i: any) => [i.id, i.type, i.quantity, i.subscription.is_cancelable]),
      [['pro', 'subscription', 1, true]],
    );
    assert.equal(bought.items[0].product.server_metadata, null);

    // The code is used up; buying the same plan again is refused.
    await t.refuses(
      'payments.testModePurchase',
      {},
      { body: { full_code: code, price_id: 'monthly' } },
      'VERIFICATION_CODE_ALREADY_USED',
      409,
    );
    const again = { customer_type: 'user', customer_id: user.id, product_id: 'pro' };
    await refusedWithStatus(t, 'payments.createPurchaseUrl', user.client, { body: again }, 400);

    // Switching within the product line replaces the plan; its credits follow.
    const upgrade = await codeFor(t, user.client, user.id, 'max');
    assert.deepEqual(
      (await t.call<{ conflicting_products: unknown }>('payments.validateCode', {}, { body: { full_code: upgrade } })).conflicting_products,
      [{ product_id: 'pro', display_name: 'Pro' }],
    );
    await t.call('payments.testModePurchaseSession', p.admin, { body: { full_code: upgrade, price_id: 'monthly' } });
    assert.equal(await credits(t, user.client, user.id), 500);
    assert.deepEqual(
      (await products(t, p.server, user.id)).items.map((i: any) => i.id),
      ['max'],
    );

    // Cancelling a test-mode subscription (the account-settings Cancel button) marks it canceled; as
    // upstream, the customer keeps it, listed as one_time, until its period ends.
    const other = await createCoreUser(t, p);
    const trial = await codeFor(t, other.client, other.id, 'pro');
    await testPurchase(t, { full_code: trial, price_id: 'monthly' });
    const cancel = { params: { customer_type: 'user', customer_id: other.id, product_id: 'pro' } };
    await refusedWithStatus(t, 'payments.cancelSubscription', user.client, cancel, 403);
    assert.deepEqual(await t.call('payments.cancelSubscription', other.client, cancel), { success: true });
    assert.equal(await credits(t, other.client, other.id), 100);
    assert.deepEqual(
      (await products(t, other.client, other.id)).items.map((i: any) => [i.id, i.type, i.subscription]),
      [['pro', 'one_time', null]],
    );

    // A stackable one-off pack, bought three at once.
    const pack = await codeFor(t, p.server, user.id, 'pack');
    await testPurchase(t, { full_code: pack, price_id: 'once', quantity: 3 });
    assert.equal(await credits(t, user.client, user.id), 650);

    // Transactions list them with the configured prices, flagged test mode (no money moved).
    const tx = await t.call<{ transactions: any[] }>('payments.listTransactions', p.admin);
    assert.deepEqual(
      tx.transactions.map((x: any) => [x.type, x.test_mode, x.entries.map((e: any) => e.type).join('+')]),
      [
        ['purchase', true, 'product_grant+item_quantity_change'],
        ['purchase', true, 'product_grant+item_quantity_change'],
        ['purchase', true, 'product_grant+item_quantity_change'],
        ['purchase', true, 'product_grant+item_quantity_change'],
      ],
    );
    const subscription = tx.transactions.find((x: any) => x.entries[0].subscription_id !== undefined && x.customer_id === user.id);
    const refund = (type: string) => ({ body: { type, id: subscription.id } });
    await t.refuses('payments.refundTransaction', p.admin, refund('subscription'), 'SUBSCRIPTION_INVOICE_NOT_FOUND', 404);
    await t.refuses('payments.refundTransaction', p.admin, refund('one-time-purchase'), 'ONE_TIME_PURCHASE_NOT_FOUND', 404);
  });

  it('money never comes from client input: amounts and prices in requests are refused or ignored', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, PAYMENTS_CONFIG);
    const user = await createCoreUser(t, p);
    const customer = { customer_type: 'user', customer_id: user.id };
    // A price or amount in create-purchase-url is not part of the request shape.
    for (const extra of [{ price: '0.01' }, { amount: 1 }, { prices: { monthly: { USD: '0.01' } } }])
      await t.refuses(
        'payments.createPurchaseUrl',
        user.client,
        { body: { ...customer, product_id: 'pack', ...extra } },
        'SCHEMA_ERROR',
        400,
      );
    // A client may not define its own product (with its own prices), nor buy a server-only one.
    const inline = await refusedWithStatus(
      t,
      'payments.createPurchaseUrl',
      user.client,
      {
        body: {
          ...customer,
          product_inline: {
            display_name: 'Cheap',
            customer_type: 'user',
            prices: { p: { USD: '0.01' } },
            included_items: { credits: { quantity: 1000000 } },
          },
        },
      },
      400,
    );
    assert.match(String((inline as Error).message), /Cannot specify product_inline when calling from client/);
    await t.refuses(
      'payments.createPurchaseUrl',
      user.client,
      { body: { ...customer, product_id: 'secret' } },
      'PRODUCT_DOES_NOT_EXIST',
      400,
    );
    // The purchase page's calls take a price id and a quantity, never an amount.
    const code = await codeFor(t, user.client, user.id, 'pack');
    for (const extra of [{ amount: 1 }, { unit_amount: 1 }, { price: { USD: '0.01' } }, { currency: 'JPY' }]) {
      const body = { full_code: code, price_id: 'once', ...extra };
      await t.refuses('payments.testModePurchase', {}, { body }, 'SCHEMA_ERROR', 400);
      await t.refuses('payments.purchaseSession', {}, { body }, 'SCHEMA_ERROR', 400);
    }
    await refusedWithStatus(t, 'payments.testModePurchase', {}, { body: { full_code: code, price_id: 'nope' } }, 400);
    // Config changes after the URL was made do not reach that purchase either way; the record holds the configured price.
    await testPurchase(t, { full_code: code, price_id: 'once', quantity: 2 });
    const purchase = (await t.call<{ transactions: any[] }>('payments.listTransactions', p.admin)).transactions[0];
    assert.equal(purchase.entries[0].price_id, 'once');
    assert.deepEqual(purchase.entries[0].product.prices, { once: { USD: '4.00' } });
  });

  it('refuses what upstream refuses: other customers, wrong customer type, blocked purchases, bad codes, test mode off', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, PAYMENTS_CONFIG);
    const alice = await createCoreUser(t, p);
    const bob = await createCoreUser(t, p);
    const url = (body: Record<string, unknown>): InvokeInput => ({ body });
    await refusedWithStatus(
      t,
      'payments.createPurchaseUrl',
      alice.client,
      url({ customer_type: 'user', customer_id: bob.id, product_id: 'pro' }),
      403,
    );
    await t.refuses(
      'payments.createPurchaseUrl',
      p.server,
      url({ customer_type: 'team', customer_id: 'x', product_id: 'pro' }),
      'PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH',
      400,
    );
    await t.refuses(
      'payments.createPurchaseUrl',
      p.server,
      url({ customer_type: 'user', customer_id: alice.id, product_id: 'credits' }),
      'PRODUCT_DOES_NOT_EXIST',
      400,
    );
    await t.refuses(
      'payments.createPurchaseUrl',
      p.server,
      url({ customer_type: 'user', customer_id: alice.id, product_id: 'pro', return_url: 'https://evil.example.com/' }),
      'REDIRECT_URL_NOT_WHITELISTED',
      400,
    );
    for (const full_code of [`${p.projectId}_nope`, 'garbage'])
      await t.refuses('payments.validateCode', {}, { body: { full_code } }, 'VERIFICATION_CODE_NOT_FOUND', 404);

    const code = await codeFor(t, alice.client, alice.id, 'pro');
    // No Stripe account: a real payment cannot start.
    await t.refuses(
      'payments.purchaseSession',
      {},
      { body: { full_code: code, price_id: 'monthly' } },
      'STRIPE_ACCOUNT_INFO_NOT_FOUND',
      404,
    );
    // Another project's admin cannot complete this code.
    const other = await createCoreProject(t);
    await refusedWithStatus(t, 'payments.testModePurchaseSession', other.admin, { body: { full_code: code, price_id: 'monthly' } }, 400);
    // Test mode off: the public test-mode route refuses.
    await configure(t, p.admin, { 'payments.testMode': false });
    await refusedWithStatus(t, 'payments.testModePurchase', {}, { body: { full_code: code, price_id: 'monthly' } }, 400);
    assert.equal((await t.call<{ test_mode: boolean }>('payments.validateCode', {}, { body: { full_code: code } })).test_mode, false);
    await configure(t, p.admin, { 'payments.blockNewPurchases': true });
    await t.refuses(
      'payments.createPurchaseUrl',
      alice.client,
      url({ customer_type: 'user', customer_id: alice.id, product_id: 'pack' }),
      'NEW_PURCHASES_BLOCKED',
      403,
    );
    // Codes expire after 24 hours.
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    await t.refuses('payments.validateCode', {}, { body: { full_code: code } }, 'VERIFICATION_CODE_EXPIRED', 400);
  });

  it("grants a product through the server API (the SDK's grantProduct) and lists it", async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, PAYMENTS_CONFIG);
    const user = await createCoreUser(t, p);
    const params = { customer_type: 'user', customer_id: user.id };
    await t.call('payments.grantProduct', p.server, { params, body: { product_id: 'pack', quantity: 2 } });
    assert.equal(await credits(t, p.server, user.id), 100);
    await t.refuses('payments.grantProduct', user.client, { params, body: { product_id: 'pack' } }, 'INSUFFICIENT_ACCESS_TYPE', 401);
  });
});
