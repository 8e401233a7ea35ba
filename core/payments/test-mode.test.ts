import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject } from '../../test/helpers/api.ts';
import { projectUser } from '../../test/helpers/project-user.ts';
import { PAYMENTS_CONFIG, codeOf, configure } from '../../test/helpers/payments.ts';

/**
 * On a server in production mode, a signed-in user could "buy" any product
 * free through the public test-mode purchase route while the project was in test mode (the
 * default). Now that route needs `payments.publicTestMode`; admins complete test purchases
 * through `/internal/payments/test-mode-purchase-session`.
 */
describeWithServer(
  'test-mode purchases on a production server',
  (get) => {
    it('refuses a public test-mode purchase unless the project turned payments.publicTestMode on; admins may complete one', async () => {
      const server = get();
      const p = await createProject(server);
      await configure(server, p.admin, PAYMENTS_CONFIG);
      const user = await projectUser(server, p);
      const credits = async () =>
        (await api(server, 'GET', `/payments/items/user/${user.id}/credits`, user.client)).body.quantity as number;
      const codeFor = async () => {
        const created = await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
          customer_type: 'user',
          customer_id: user.id,
          product_id: 'pack',
        });
        assert.equal(created.status, 200, created.text);
        return codeOf(created.body.url);
      };

      const code = await codeFor();
      assert.equal((await api(server, 'POST', '/payments/purchases/validate-code', {}, { full_code: code })).body.test_mode, true);
      const refused = await api(server, 'POST', '/payments/purchases/test-mode-purchase', {}, { full_code: code, price_id: 'once' });
      assert.equal(refused.status, 403, refused.text);
      assert.match(refused.text, /payments\.publicTestMode/);
      assert.equal(await credits(), 0);

      // An admin completes the same code (the dashboard's test purchase).
      assert.equal(
        (await api(server, 'POST', '/internal/payments/test-mode-purchase-session', p.admin, { full_code: code, price_id: 'once' })).status,
        200,
      );
      assert.equal(await credits(), 50);

      // The owner's explicit switch opens the purchase page's test button to code holders.
      await configure(server, p.admin, { 'payments.publicTestMode': true });
      const bought = await api(
        server,
        'POST',
        '/payments/purchases/test-mode-purchase',
        {},
        { full_code: await codeFor(), price_id: 'once' },
      );
      assert.equal(bought.status, 200, bought.text);
      assert.equal(await credits(), 100);
    });
  },
  { environment: 'production' },
);
