import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, createCoreUser, describeWithCore } from '../../test/helpers/core-client.ts';
import { PAYMENTS_CONFIG, codeOf } from '../../test/helpers/payments-config.ts';

/**
 * On a server in production mode, a signed-in user could "buy" any product
 * free through the public test-mode purchase route while the project was in test mode (the
 * default). Now that route needs `payments.publicTestMode`; admins complete test purchases
 * through `payments.testModePurchaseSession`. In-process (test/helpers/core-client.ts).
 */
describeWithCore(
  'test-mode purchases on a production server',
  (get) => {
    it('refuses a public test-mode purchase unless the project turned payments.publicTestMode on; admins may complete one', async () => {
      const t = get();
      const p = await createCoreProject(t);
      const configure = (config: Record<string, unknown>) =>
        t.call('config.updateOverride', p.admin, {
          params: { level: 'environment' },
          body: { config_override_string: JSON.stringify(config) },
        });
      await configure(PAYMENTS_CONFIG);
      const user = await createCoreUser(t, p);
      const credits = async () =>
        (
          await t.call<{ quantity: number }>('payments.getItem', user.client, {
            params: { customer_type: 'user', customer_id: user.id, item_id: 'credits' },
          })
        ).quantity;
      const codeFor = async () => {
        const created = await t.call<{ url: string }>('payments.createPurchaseUrl', user.client, {
          body: { customer_type: 'user', customer_id: user.id, product_id: 'pack' },
        });
        return codeOf(created.url);
      };

      const code = await codeFor();
      assert.equal((await t.call<{ test_mode: boolean }>('payments.validateCode', {}, { body: { full_code: code } })).test_mode, true);
      const refused = await t.core.invoke('payments.testModePurchase', {}, { body: { full_code: code, price_id: 'once' } }).then(
        () => assert.fail('the public test-mode purchase was accepted'),
        (error: { kind?: string; message?: string }) => error,
      );
      assert.equal(refused.kind, 'forbidden', String(refused));
      assert.match(String(refused.message), /payments\.publicTestMode/);
      assert.equal(await credits(), 0);

      // An admin completes the same code (the dashboard's test purchase).
      await t.call('payments.testModePurchaseSession', p.admin, { body: { full_code: code, price_id: 'once' } });
      assert.equal(await credits(), 50);

      // The owner's explicit switch opens the purchase page's test button to code holders.
      await configure({ 'payments.publicTestMode': true });
      await t.call('payments.testModePurchase', {}, { body: { full_code: await codeFor(), price_id: 'once' } });
      assert.equal(await credits(), 100);
    });
  },
  { environment: 'production' },
);
