import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api } from '../helpers/api.ts';
import { SDKS, errorCodeOf, sdkApps } from './helpers.ts';

const PASSWORD = 'interop password 1';

/** Items configured through the environment-level config override, as Stack's docs do it. */
const PAYMENTS = {
  'payments.items.credits': { displayName: 'Credits', customerType: 'user' },
  'payments.items.seats': { displayName: 'Seats', customerType: 'team' },
  'payments.items.tokens': { displayName: 'Tokens', customerType: 'custom' },
};

for (const sdk of SDKS) {
  describeWithServer(`payments items through ${sdk.name}`, (get) => {
    it('reads an item configured through a config override and changes its quantity (server and client apps)', async () => {
      const server = get();
      const { project, serverApp, clientApp } = await sdkApps(server, sdk.module);
      const patch = await api(server, 'PATCH', '/internal/config/override/environment', project.admin, {
        config_override_string: JSON.stringify(PAYMENTS),
      });
      assert.equal(patch.status, 200, patch.text);

      const created = await serverApp.createUser({ primaryEmail: 'buyer@example.com', password: PASSWORD, primaryEmailAuthEnabled: true });
      const item = await serverApp.getItem({ userId: created.id, itemId: 'credits' });
      assert.equal(item.displayName, 'Credits');
      assert.equal(item.quantity, 0);
      await item.increaseQuantity(10);
      assert.equal((await serverApp.getItem({ userId: created.id, itemId: 'credits' })).quantity, 10);
      assert.equal(await item.tryDecreaseQuantity(4), true);
      assert.equal(await item.tryDecreaseQuantity(100), false);
      assert.equal((await serverApp.getItem({ userId: created.id, itemId: 'credits' })).quantity, 6);
      await item.decreaseQuantity(8);
      assert.equal((await serverApp.getItem({ userId: created.id, itemId: 'credits' })).quantity, -2);

      // The signed-in user reads its own item through the client app.
      const app = clientApp();
      const signIn = await app.signInWithCredential({ email: 'buyer@example.com', password: PASSWORD, noRedirect: true });
      assert.equal(signIn.status, 'ok', JSON.stringify(signIn));
      const user = await app.getUser();
      assert.equal((await user.getItem('credits')).quantity, -2);

      // Custom customers and a wrong item id.
      const tokens = await serverApp.getItem({ customCustomerId: 'org-42', itemId: 'tokens' });
      await tokens.increaseQuantity(3);
      assert.equal((await serverApp.getItem({ customCustomerId: 'org-42', itemId: 'tokens' })).quantity, 3);
      await assert.rejects(serverApp.getItem({ userId: created.id, itemId: 'nope' }), (e: unknown) => errorCodeOf(e) === 'ITEM_NOT_FOUND');
    });

    it('concurrent tryDecreaseQuantity calls never overdraw', async () => {
      const server = get();
      const { project, serverApp } = await sdkApps(server, sdk.module);
      const patch = await api(server, 'PATCH', '/internal/config/override/environment', project.admin, {
        config_override_string: JSON.stringify(PAYMENTS),
      });
      assert.equal(patch.status, 200, patch.text);
      const item = await serverApp.getItem({ customCustomerId: 'acct-1', itemId: 'tokens' });
      await item.increaseQuantity(5);
      const results = await Promise.all(Array.from({ length: 9 }, () => item.tryDecreaseQuantity(1)));
      assert.equal(results.filter((r) => r === true).length, 5);
      assert.equal((await serverApp.getItem({ customCustomerId: 'acct-1', itemId: 'tokens' })).quantity, 0);
    });
  });
}
