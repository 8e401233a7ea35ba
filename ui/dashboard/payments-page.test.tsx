/**
 * Payments dashboard page under happy-dom, with a fake transport (the harness of
 * pages.test.tsx): connect Stripe with keys, see products from config, refund a paid purchase.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { click, flush, render, type, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT_ID, dashboard } from './test-harness.tsx';

const PURCHASE = {
  id: 'p-1',
  created_at_millis: 0,
  effective_at_millis: 0,
  type: 'purchase',
  customer_type: 'user',
  customer_id: 'u-1',
  adjusted_by: [],
  test_mode: false,
  entries: [
    {
      type: 'money_transfer',
      adjusted_transaction_id: null,
      adjusted_entry_index: null,
      customer_type: 'user',
      customer_id: 'u-1',
      charged_amount: { USD: '4.00' },
      net_amount: { USD: '4.00' },
    },
    {
      type: 'product_grant',
      adjusted_transaction_id: null,
      adjusted_entry_index: null,
      customer_type: 'user',
      customer_id: 'u-1',
      product_id: 'pack',
      product: { display_name: 'Credit pack' },
      price_id: 'once',
      quantity: 1,
      one_time_purchase_id: 'p-1',
    },
  ],
};

it('payments page: connects Stripe with the keys, lists configured products, refunds a paid purchase', async () => {
  let connected = false;
  let keys: unknown = null;
  let refund: unknown = null;
  const { api } = dashboard(`/projects/${PROJECT_ID}/payments`, (req) => {
    if (req.path === '/internal/payments/stripe/account-info') {
      return connected
        ? {
            status: 200,
            body: {
              account_id: 'acct_1',
              charges_enabled: true,
              details_submitted: true,
              payouts_enabled: true,
              secret_key_hint: 'sk_test_…4242',
              webhook_configured: true,
              webhook_url: 'http://localhost/api/v1/integrations/stripe/webhooks?project_id=x',
            },
          }
        : { status: 404, body: { code: 'STRIPE_ACCOUNT_INFO_NOT_FOUND', error: 'not found' }, knownError: 'STRIPE_ACCOUNT_INFO_NOT_FOUND' };
    }
    if (req.path === '/internal/payments/stripe/keys' && req.method === 'PUT') {
      keys = JSON.parse(String(req.body));
      connected = true;
      return { status: 200, body: {} };
    }
    if (req.path === '/internal/config')
      return {
        status: 200,
        body: {
          config_string: JSON.stringify({
            payments: {
              testMode: false,
              items: { credits: { displayName: 'Credits', customerType: 'user' } },
              products: {
                pack: {
                  displayName: 'Credit pack',
                  customerType: 'user',
                  prices: { once: { USD: '4.00' } },
                  includedItems: { credits: { quantity: 50 } },
                },
              },
            },
          }),
        },
      };
    if (req.path.startsWith('/internal/payments/transactions?'))
      return {
        status: 200,
        body: {
          transactions: [refund ? { ...PURCHASE, adjusted_by: [{ transaction_id: 'p-1-refund', entry_index: 1 }] } : PURCHASE],
          next_cursor: null,
        },
      };
    if (req.path === '/internal/payments/transactions/refund') {
      refund = JSON.parse(String(req.body));
      return { status: 200, body: { success: true, refund_transaction_id: 'p-1-refund' } };
    }
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'No Stripe account connected');
  await waitForText(container, 'Credit pack');
  const products = [...container.querySelectorAll('table[aria-label="Products"] td')].map((td) => td.textContent);
  assert.deepEqual(products, ['pack', 'Credit pack', 'user', '—', 'once: 4.00 USD', '50 × credits']);
  assert.match(container.querySelector('[data-testid="payments-mode"]')?.textContent ?? '', /Live mode/);

  await type(container, 'Secret key', 'sk_test_abcd4242');
  await type(container, 'Webhook signing secret', 'whsec_abcd');
  await click(container, 'Connect Stripe');
  await waitForText(container, 'acct_1');
  assert.deepEqual(keys, { secret_key: 'sk_test_abcd4242', webhook_secret: 'whsec_abcd' });
  assert.doesNotMatch(container.textContent ?? '', /sk_test_abcd4242/);

  await waitForText(container, '4.00 USD');
  await click(container, 'Refund');
  await click(container, 'Yes, refund');
  await flush();
  assert.deepEqual(refund, { type: 'one-time-purchase', id: 'p-1' });
  await waitForText(container, 'refunded');
  await unmount();
});
