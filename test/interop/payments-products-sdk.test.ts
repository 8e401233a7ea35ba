import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api } from '../helpers/api.ts';
import { PAYMENTS_CONFIG } from '../helpers/payments.ts';
import { SDKS, sdkApps } from './helpers.ts';

const PASSWORD = 'interop password 1';

for (const sdk of SDKS) {
  describeWithServer(`payments products and switch through ${sdk.name}`, (get) => {
    it('lists owned products with switch options and paging; switchSubscription answers the server refusal', async () => {
      const server = get();
      const { project, serverApp, clientApp } = await sdkApps(server, sdk.module);
      const patch = await api(server, 'PATCH', '/internal/config/override/environment', project.admin, {
        config_override_string: JSON.stringify(PAYMENTS_CONFIG),
      });
      assert.equal(patch.status, 200, patch.text);
      const created = await serverApp.createUser({ primaryEmail: 'plans@example.com', password: PASSWORD, primaryEmailAuthEnabled: true });
      await serverApp.grantProduct({ userId: created.id, productId: 'pack', quantity: 2 });
      await serverApp.grantProduct({ userId: created.id, productId: 'pack', quantity: 1 });
      await serverApp.grantProduct({ userId: created.id, productId: 'pro' });

      const app = clientApp();
      const signIn = await app.signInWithCredential({ email: 'plans@example.com', password: PASSWORD, noRedirect: true });
      assert.equal(signIn.status, 'ok', JSON.stringify(signIn));
      const user = await app.getUser();
      const products = await user.listProducts();
      assert.deepEqual(
        products.map((p: { id: string; quantity: number; type: string }) => [p.id, p.quantity, p.type]),
        [
          ['pack', 3, 'one_time'],
          ['pro', 1, 'subscription'],
        ],
      );
      assert.equal(products.nextCursor, null);
      assert.deepEqual(
        products[1].switchOptions.map((o: { productId: string; displayName: string }) => [o.productId, o.displayName]),
        [['max', 'Max']],
      );
      const firstPage = await user.listProducts({ limit: 1 });
      assert.equal(firstPage.length, 1);
      assert.equal(firstPage.nextCursor, 'pro');

      // A granted subscription is not paid through Stripe: the server refuses the switch.
      await assert.rejects(user.switchSubscription({ fromProductId: 'pro', toProductId: 'max' }), /cannot be switched/);
    });
  });
}
