import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KnownError, type Credentials, type InvokeInput } from '../index.ts';
import { createCoreProject, createCoreUser, describeWithCore, startSecondCore, type TestCore } from '../../test/helpers/core-client.ts';

/**
 * Payments items (upstream `payments/items/[customer_type]/[customer_id]/[item_id]`), in-process
 * (test/helpers/core-client.ts): refusals by known-error code, catalogue status, details and
 * message (the wire's `error`), or by plain status kind.
 */

/** Sets payments config through the environment-level override, as upstream's e2e tests do. */
async function configure(t: TestCore, admin: Credentials, config: Record<string, unknown>) {
  await t.call('config.updateOverride', admin, {
    params: { level: 'environment' },
    body: { config_override_string: JSON.stringify(config) },
  });
}

const ITEMS = {
  payments: {
    items: {
      credits: { displayName: 'Credits', customerType: 'user' },
      seats: { displayName: 'Seats', customerType: 'team' },
      tokens: { displayName: 'Tokens', customerType: 'custom' },
    },
  },
};

/** `customer_type/customer_id/item_id` as the operations' path parameters. */
const itemParams = (path: string): Record<string, string> => {
  const [customer_type = '', customer_id = '', item_id = ''] = path.split('/');
  return { customer_type, customer_id, item_id };
};

const quantity = async (t: TestCore, caller: Credentials, path: string) =>
  (await t.call<{ quantity: number }>('payments.getItem', caller, { params: itemParams(path) })).quantity;

/** The input of payments.updateItemQuantity for `customer_type/customer_id/item_id`. */
const changeOf = (path: string, allowNegative: boolean, body: Record<string, unknown>): InvokeInput => ({
  params: itemParams(path),
  query: { allow_negative: String(allowNegative) },
  body,
});

const change = (t: TestCore, caller: Credentials, path: string, allowNegative: boolean, body: Record<string, unknown>) =>
  t.call('payments.updateItemQuantity', caller, changeOf(path, allowNegative, body));

describeWithCore('payments items', (get) => {
  it('reads 0 for a configured item, then the sum of its changes; expired changes do not count', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, ITEMS);
    const user = await createCoreUser(t, p);
    assert.deepEqual(await t.call('payments.getItem', user.client, { params: itemParams(`user/${user.id}/credits`) }), {
      id: 'credits',
      display_name: 'Credits',
      quantity: 0,
    });
    for (const delta of [2, -1, 5]) await change(t, p.admin, `user/${user.id}/credits`, false, { delta });
    const expired = await change(t, p.server, `user/${user.id}/credits`, false, {
      delta: 4,
      expires_at: new Date(t.clock.now() - 1000).toISOString(),
      description: 'old grant',
    });
    assert.deepEqual(expired, {});
    assert.equal(await quantity(t, user.client, `user/${user.id}/credits`), 6);
  });

  it("refuses with upstream's errors: unknown item, customer type mismatch, insufficient quantity, unknown customer", async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, ITEMS);
    const user = await createCoreUser(t, p);
    const read = (path: string): InvokeInput => ({ params: itemParams(path) });
    const missing = await t.refuses('payments.getItem', user.client, read(`user/${user.id}/nope`), 'ITEM_NOT_FOUND', 404);
    assert.deepEqual(missing.details, { item_id: 'nope' });
    assert.equal(missing.message, 'Item with ID "nope" not found.');
    const mismatch = await t.refuses(
      'payments.updateItemQuantity',
      p.admin,
      changeOf(`user/${user.id}/seats`, true, { delta: 1 }),
      'ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH',
      400,
    );
    assert.deepEqual(mismatch.details, {
      item_id: 'seats',
      customer_id: user.id,
      item_customer_type: 'team',
      actual_customer_type: 'user',
    });
    assert.equal(
      mismatch.message,
      `The user with ID "${user.id}" is not a valid customer for the item with ID "seats". The item is configured to only be available for team customers, but the customer is a user.`,
    );
    const short = await t.refuses(
      'payments.updateItemQuantity',
      p.admin,
      changeOf(`user/${user.id}/credits`, false, { delta: -1 }),
      'ITEM_QUANTITY_INSUFFICIENT_AMOUNT',
      400,
    );
    assert.deepEqual(short.details, { item_id: 'credits', customer_id: user.id, quantity: -1 });
    assert.equal(
      short.message,
      `The item with ID "credits" has an insufficient quantity for the customer with ID "${user.id}". An attempt was made to charge -1 credits.`,
    );
    await t.refuses('payments.getItem', p.server, read('user/5b0f7e1c-7a33-4c43-9a57-3d1c8b1d0a11/credits'), 'USER_NOT_FOUND', 404);
    await t.refuses('payments.getItem', p.server, read('team/not-a-team/seats'), 'TEAM_NOT_FOUND', 404);
    await t.refuses('payments.getItem', {}, read(`user/${user.id}/credits`), 'ACCESS_TYPE_REQUIRED', 400);
    // No allow_negative in the query; a delta that is not an integer.
    const noQuery = { params: itemParams(`user/${user.id}/credits`), body: { delta: 1 } };
    await t.refuses('payments.updateItemQuantity', p.admin, noQuery, 'SCHEMA_ERROR', 400);
    const fraction = changeOf(`user/${user.id}/credits`, false, { delta: 1.5 });
    await t.refuses('payments.updateItemQuantity', p.admin, fraction, 'SCHEMA_ERROR', 400);
  });

  it('allow_negative lets the quantity go below zero; custom customers need no account', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, ITEMS);
    const user = await createCoreUser(t, p);
    await change(t, p.admin, `user/${user.id}/credits`, true, { delta: -3 });
    assert.equal(await quantity(t, user.client, `user/${user.id}/credits`), -3);
    assert.equal(await quantity(t, p.admin, 'custom/custom-xyz/tokens'), 0);
    await change(t, p.admin, 'custom/custom-xyz/tokens', false, { delta: 3, description: 'grant' });
    assert.equal(await quantity(t, p.server, 'custom/custom-xyz/tokens'), 3);
  });

  it("a client reads only its own user's items and its teams' items as team_admin, and may not change quantities", async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, ITEMS);
    const alice = await createCoreUser(t, p);
    const bob = await createCoreUser(t, p);
    const read = (path: string): InvokeInput => ({ params: itemParams(path) });
    // Another user's items and a custom customer's: a plain 403, as upstream.
    await t.refusesPlain('payments.getItem', alice.client, read(`user/${bob.id}/credits`), 'forbidden');
    await t.refusesPlain('payments.getItem', alice.client, read('custom/custom-xyz/tokens'), 'forbidden');
    await t.refuses('payments.getItem', p.client, read(`user/${alice.id}/credits`), 'USER_AUTHENTICATION_REQUIRED', 401);
    const raise = changeOf(`user/${alice.id}/credits`, true, { delta: 100 });
    await t.refuses('payments.updateItemQuantity', alice.client, raise, 'INSUFFICIENT_ACCESS_TYPE', 401);
    const team = await t.call<{ id: string }>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    assert.equal(await quantity(t, alice.client, `team/${team.id}/seats`), 0);
    await t.refuses('payments.getItem', bob.client, read(`team/${team.id}/seats`), 'TEAM_PERMISSION_REQUIRED', 401);
  });

  it('an idempotency key applies a change once, and refuses its reuse for another change', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, ITEMS);
    const user = await createCoreUser(t, p);
    for (let i = 0; i < 3; i++) await change(t, p.server, `user/${user.id}/credits`, false, { delta: 7, idempotency_key: 'batch-1' });
    assert.equal(await quantity(t, p.server, `user/${user.id}/credits`), 7);
    const reuse = changeOf(`user/${user.id}/credits`, false, { delta: 8, idempotency_key: 'batch-1' });
    await t.refusesPlain('payments.updateItemQuantity', p.server, reuse, 'conflict');
  });

  it('concurrent decreases never overdraw and concurrent increases are never lost (two cores on one database)', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await configure(t, p.admin, ITEMS);
    const user = await createCoreUser(t, p);
    const second = await startSecondCore(t);
    try {
      const cores = [t.core, second];
      const on = (i: number, delta: number) =>
        cores[i % 2]!.invoke('payments.updateItemQuantity', p.server, changeOf(`user/${user.id}/credits`, false, { delta }));
      // 12 increases of 1 spread over both cores, all at once: none lost. (At most 9 at once per
      // core, under the connection pool's size of 10, so a loaded machine never turns a wait for
      // a pooled connection into DATABASE_UNAVAILABLE.)
      await Promise.all(Array.from({ length: 12 }, (_, i) => on(i, 1)));
      assert.equal(await quantity(t, p.server, `user/${user.id}/credits`), 12);
      // 18 decreases of 1 at once (what tryDecreaseQuantity sends): exactly 12 succeed.
      const decs = await Promise.allSettled(Array.from({ length: 18 }, (_, i) => on(i, -1)));
      assert.equal(decs.filter((r) => r.status === 'fulfilled').length, 12);
      for (const r of decs) {
        if (r.status === 'fulfilled') continue;
        assert.ok(r.reason instanceof KnownError, String(r.reason));
        assert.equal(r.reason.code, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT');
      }
      const left = await second.invoke<{ quantity: number }>('payments.getItem', p.server, {
        params: itemParams(`user/${user.id}/credits`),
      });
      assert.equal(left.quantity, 0);
    } finally {
      await second.close();
    }
  });
});
