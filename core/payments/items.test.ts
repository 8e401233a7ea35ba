import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../../test/helpers/api.ts';
import { projectUser } from '../../test/helpers/project-user.ts';
import { startSecondProcess } from '../../test/helpers/second-process.ts';
import type { TestServer } from '../../test/helpers/server.ts';

/** Sets payments config through the environment-level override, as upstream's e2e tests do. */
async function configure(server: TestServer, admin: Caller, config: Record<string, unknown>) {
  const res = await api(server, 'PATCH', '/internal/config/override/environment', admin, {
    config_override_string: JSON.stringify(config),
  });
  assert.equal(res.status, 200, res.text);
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

const change = (server: TestServer, caller: Caller, path: string, allowNegative: boolean, body: Record<string, unknown>) =>
  api(server, 'POST', `/payments/items/${path}/update-quantity?allow_negative=${allowNegative}`, caller, body);

describeWithServer('payments items API', (get) => {
  it('reads 0 for a configured item, then the sum of its changes; expired changes do not count', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, ITEMS);
    const user = await projectUser(server, p);
    assert.deepEqual((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, user.client)).body, {
      id: 'credits',
      display_name: 'Credits',
      quantity: 0,
    });
    for (const delta of [2, -1, 5]) assert.equal((await change(server, p.admin, `user/${user.id}/credits`, false, { delta })).status, 200);
    const expired = await change(server, p.server, `user/${user.id}/credits`, false, {
      delta: 4,
      expires_at: new Date(server.clock.now() - 1000).toISOString(),
      description: 'old grant',
    });
    assert.deepEqual(expired.body, {});
    assert.equal((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, user.client)).body.quantity, 6);
  });

  it("answers upstream's errors: unknown item, customer type mismatch, insufficient quantity, unknown customer", async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, ITEMS);
    const user = await projectUser(server, p);
    const missing = await api(server, 'GET', `/payments/items/user/${user.id}/nope`, user.client);
    assertKnownError(missing, 'ITEM_NOT_FOUND', 404);
    assert.deepEqual(missing.body, { code: 'ITEM_NOT_FOUND', details: { item_id: 'nope' }, error: 'Item with ID "nope" not found.' });
    const mismatch = await change(server, p.admin, `user/${user.id}/seats`, true, { delta: 1 });
    assertKnownError(mismatch, 'ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH', 400);
    assert.deepEqual(mismatch.body.details, {
      item_id: 'seats',
      customer_id: user.id,
      item_customer_type: 'team',
      actual_customer_type: 'user',
    });
    assert.equal(
      mismatch.body.error,
      `The user with ID "${user.id}" is not a valid customer for the item with ID "seats". The item is configured to only be available for team customers, but the customer is a user.`,
    );
    const short = await change(server, p.admin, `user/${user.id}/credits`, false, { delta: -1 });
    assertKnownError(short, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT', 400);
    assert.deepEqual(short.body, {
      code: 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT',
      details: { item_id: 'credits', customer_id: user.id, quantity: -1 },
      error: `The item with ID "credits" has an insufficient quantity for the customer with ID "${user.id}". An attempt was made to charge -1 credits.`,
    });
    assertKnownError(
      await api(server, 'GET', '/payments/items/user/5b0f7e1c-7a33-4c43-9a57-3d1c8b1d0a11/credits', p.server),
      'USER_NOT_FOUND',
      404,
    );
    assertKnownError(await api(server, 'GET', '/payments/items/team/not-a-team/seats', p.server), 'TEAM_NOT_FOUND', 404);
    assertKnownError(await api(server, 'GET', `/payments/items/user/${user.id}/credits`, {}), 'ACCESS_TYPE_REQUIRED', 400);
    const badQuery = await api(server, 'POST', `/payments/items/user/${user.id}/credits/update-quantity`, p.admin, { delta: 1 });
    assertKnownError(badQuery, 'SCHEMA_ERROR', 400);
    assertKnownError(await change(server, p.admin, `user/${user.id}/credits`, false, { delta: 1.5 }), 'SCHEMA_ERROR', 400);
  });

  it('allow_negative lets the quantity go below zero; custom customers need no account', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, ITEMS);
    const user = await projectUser(server, p);
    assert.equal((await change(server, p.admin, `user/${user.id}/credits`, true, { delta: -3 })).status, 200);
    assert.equal((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, user.client)).body.quantity, -3);
    assert.equal((await api(server, 'GET', '/payments/items/custom/custom-xyz/tokens', p.admin)).body.quantity, 0);
    assert.equal((await change(server, p.admin, 'custom/custom-xyz/tokens', false, { delta: 3, description: 'grant' })).status, 200);
    assert.equal((await api(server, 'GET', '/payments/items/custom/custom-xyz/tokens', p.server)).body.quantity, 3);
  });

  it("a client reads only its own user's items and its teams' items as team_admin, and may not change quantities", async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, ITEMS);
    const alice = await projectUser(server, p);
    const bob = await projectUser(server, p);
    const other = await api(server, 'GET', `/payments/items/user/${bob.id}/credits`, alice.client);
    assert.equal(other.status, 403);
    assert.equal((await api(server, 'GET', '/payments/items/custom/custom-xyz/tokens', alice.client)).status, 403);
    assertKnownError(await api(server, 'GET', `/payments/items/user/${alice.id}/credits`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await change(server, alice.client, `user/${alice.id}/credits`, true, { delta: 100 }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    const team = await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id });
    assert.equal(team.status, 201, team.text);
    assert.equal((await api(server, 'GET', `/payments/items/team/${team.body.id}/seats`, alice.client)).body.quantity, 0);
    assertKnownError(await api(server, 'GET', `/payments/items/team/${team.body.id}/seats`, bob.client), 'TEAM_PERMISSION_REQUIRED', 401);
  });

  it('an idempotency key applies a change once, and refuses its reuse for another change', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, ITEMS);
    const user = await projectUser(server, p);
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await change(server, p.server, `user/${user.id}/credits`, false, { delta: 7, idempotency_key: 'batch-1' })).status,
        200,
      );
    assert.equal((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, p.server)).body.quantity, 7);
    assert.equal((await change(server, p.server, `user/${user.id}/credits`, false, { delta: 8, idempotency_key: 'batch-1' })).status, 409);
  });

  it('concurrent decreases never overdraw and concurrent increases are never lost (two server processes)', async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, ITEMS);
    const user = await projectUser(server, p);
    const second = await startSecondProcess(server);
    try {
      const servers = [server, second.view];
      // 12 increases of 1 spread over both processes, all at once: none lost. (At most 9 requests
      // per process at once, under the connection pool's size of 10, so a loaded machine never
      // turns a wait for a pooled connection into DATABASE_UNAVAILABLE.)
      const incs = await Promise.all(
        Array.from({ length: 12 }, (_, i) => change(servers[i % 2]!, p.server, `user/${user.id}/credits`, false, { delta: 1 })),
      );
      assert.ok(
        incs.every((r) => r.status === 200),
        incs.map((r) => r.text).join(),
      );
      assert.equal((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, p.server)).body.quantity, 12);
      // 18 decreases of 1 at once (what tryDecreaseQuantity sends): exactly 12 succeed.
      const decs = await Promise.all(
        Array.from({ length: 18 }, (_, i) => change(servers[i % 2]!, p.server, `user/${user.id}/credits`, false, { delta: -1 })),
      );
      assert.equal(decs.filter((r) => r.status === 200).length, 12);
      for (const r of decs.filter((x) => x.status !== 200)) assertKnownError(r, 'ITEM_QUANTITY_INSUFFICIENT_AMOUNT', 400);
      assert.equal((await api(second.view, 'GET', `/payments/items/user/${user.id}/credits`, p.server)).body.quantity, 0);
    } finally {
      await second.close();
    }
  });
});
