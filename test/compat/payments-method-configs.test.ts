import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { startStripeApi } from '../helpers/stripe-api.ts';

// Upstream https://github.com/stack-auth/stack-auth/blob/2f719903b181c20940159e9f3aaaa99bc3ec3b0f/apps/e2e/tests/backend/endpoints/api/v1/internal/payments/method-configs.test.ts
// (inline snapshots) and the handlers of internal/payments/method-configs; Stripe's payment method
// configurations come from the loopback Stripe API.

const SECRET_KEY = 'sk_test_GatehouseMethodsKey4242';
const stripeApi = await startStripeApi({ secretKey: SECRET_KEY, now: () => Date.now() });
after(() => stripeApi.close());
/** The account's configuration as the loopback Stripe API starts with it (each dialect's run starts from it). */
const DEFAULT_CONFIG = JSON.stringify(stripeApi.paymentMethodConfigs.get('pmc_default'));

const PATH = '/internal/payments/method-configs';
const ALL_IDS =
  'card, cartes_bancaires, apple_pay, google_pay, link, amazon_pay, cashapp, klarna, affirm, afterpay_clearpay, zip, ideal, bancontact, eps, p24, blik, alipay, wechat_pay, sepa_debit, bacs_debit, acss_debit, us_bank_account, multibanco, customer_balance';

const schemaError = (line: string) => {
  const message = `Request validation failed on PATCH /api/v1/internal/payments/method-configs:\n  - ${line}`;
  return { code: 'SCHEMA_ERROR', details: { message }, error: message };
};

describeWithServer(
  'payments method configs as upstream answers them',
  (get) => {
    it('is admin only; without a Stripe account it answers STRIPE_ACCOUNT_INFO_NOT_FOUND', async () => {
      const server = get();
      const p = await createProject(server);
      for (const caller of [p.client, p.server]) {
        for (const [method, body] of [
          ['GET', undefined],
          ['PATCH', { config_id: 'test', updates: {} }],
        ] as const) {
          const res = await api(server, method, PATH, caller, body);
          assert.equal(res.status, 401);
          assert.deepEqual(res.body, {
            code: 'INSUFFICIENT_ACCESS_TYPE',
            details: { actual_access_type: caller.accessType, allowed_access_types: ['admin'] },
            error: `The x-stack-access-type header must be 'admin', but was '${caller.accessType}'.`,
          });
        }
      }
      const none = await api(server, 'GET', PATH, p.admin);
      assert.equal(none.status, 404);
      assert.equal(none.headers.get('x-stack-known-error'), 'STRIPE_ACCOUNT_INFO_NOT_FOUND');
      assert.deepEqual(none.body, {
        code: 'STRIPE_ACCOUNT_INFO_NOT_FOUND',
        error: 'Stripe account information not found. Please make sure the user has onboarded with Stripe.',
      });
      assert.deepEqual((await api(server, 'PATCH', PATH, p.admin, { config_id: 'pmc_x', updates: {} })).body, { success: true });
    });

    it("lists the account's payment methods and turns them on and off in Stripe", async () => {
      const server = get();
      stripeApi.paymentMethodConfigs.set('pmc_default', JSON.parse(DEFAULT_CONFIG));
      const p = await createProject(server);
      const keys = await api(server, 'PUT', '/internal/payments/stripe/keys', p.admin, { secret_key: SECRET_KEY });
      assert.equal(keys.status, 200, keys.text);
      const list = await api(server, 'GET', PATH, p.admin);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body, {
        config_id: 'pmc_default',
        methods: [
          { id: 'affirm', name: 'Affirm', enabled: false, available: true, overridable: true },
          { id: 'apple_pay', name: 'Apple Pay', enabled: true, available: true, overridable: false },
          { id: 'card', name: 'Credit/Debit Card', enabled: true, available: true, overridable: true },
          { id: 'link', name: 'Link', enabled: true, available: true, overridable: true },
          { id: 'us_bank_account', name: 'US Bank Account', enabled: false, available: true, overridable: true },
          { id: 'klarna', name: 'Klarna', enabled: false, available: false, overridable: true },
        ],
      });

      const invalidMethod = await api(server, 'PATCH', PATH, p.admin, { config_id: 'pmc_test', updates: { invalid_method: 'on' } });
      assert.equal(invalidMethod.status, 400);
      assert.deepEqual(invalidMethod.body, schemaError(`body.updates must be one of the following values: ${ALL_IDS}`));
      const invalidValue = await api(server, 'PATCH', PATH, p.admin, { config_id: 'pmc_test', updates: { card: 'enabled' } });
      assert.equal(invalidValue.status, 400);
      assert.deepEqual(invalidValue.body, schemaError('body.updates must be one of the following values: on, off'));

      const from = stripeApi.calls.length;
      const ok = await api(server, 'PATCH', PATH, p.admin, { config_id: 'pmc_default', updates: { card: 'off', affirm: 'on' } });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body, { success: true });
      const call = stripeApi.calls.slice(from).find((c) => c.path === '/v1/payment_method_configurations/pmc_default')!;
      assert.equal(call.method, 'POST');
      assert.deepEqual(call.form, { 'card[display_preference][preference]': 'off', 'affirm[display_preference][preference]': 'on' });
      const after = (await api(server, 'GET', PATH, p.admin)).body.methods;
      assert.deepEqual(
        after
          .filter((m: { id: string }) => m.id === 'card' || m.id === 'affirm')
          .map((m: { id: string; enabled: boolean }) => [m.id, m.enabled]),
        [
          ['affirm', true],
          ['card', false],
        ],
      );
    });
  },
  { stripeApiOverride: stripeApi.override },
);
