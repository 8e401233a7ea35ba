/**
 * Browser test: the hosted purchase page in real Chromium. A test-mode project's
 * purchase URL (made by create-purchase-url) shows the configured product, its price and included
 * items; "Complete test purchase" grants the product and its items without Stripe. The page's
 * requests carry a price id and a quantity only, never an amount.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { api, createProject } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { PAYMENTS_CONFIG, configure } from '../helpers/payments.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium } from '../helpers/browser.ts';

const ARTIFACTS = 'test-artifacts/browser-payments';

describe(`hosted purchase page in Chromium [${testDialects()[0]}]`, () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestServer(testDialects()[0]!);
    browser = await openChromium();
  });
  after(async () => {
    await closeChromium(browser);
    await server?.close();
  });

  it('shows the configured product and completes a test-mode purchase that grants the product and its items', async () => {
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const user = await projectUser(server, p);
    const created = await api(server, 'POST', '/payments/purchases/create-purchase-url', user.client, {
      customer_type: 'user',
      customer_id: user.id,
      product_id: 'pro',
    });
    assert.equal(created.status, 200, created.text);

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const sentBodies: Array<Record<string, unknown>> = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().includes('/payments/purchases/')) sentBodies.push(JSON.parse(req.postData() ?? '{}'));
    });
    await page.goto(created.body.url);
    await page.getByTestId('product-name').waitFor();
    assert.equal(await page.getByTestId('product-name').textContent(), 'Pro');
    assert.equal(await page.getByTestId('price-monthly').textContent(), '9.99 USD every 1 month(s)');
    assert.match((await page.getByTestId('included-items').textContent()) ?? '', /100 × credits/);
    assert.match((await page.getByTestId('test-mode').textContent()) ?? '', /Test mode/);
    await page.screenshot({ path: `${ARTIFACTS}/01-purchase-page.png`, fullPage: true });

    await page.getByRole('button', { name: 'Complete test purchase' }).click();
    await page.getByText('Purchase complete.').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/02-purchase-complete.png`, fullPage: true });

    assert.equal((await api(server, 'GET', `/payments/items/user/${user.id}/credits`, user.client)).body.quantity, 100);
    assert.deepEqual(
      (await api(server, 'GET', `/payments/products/user/${user.id}`, user.client)).body.items.map((i: { id: string }) => i.id),
      ['pro'],
    );
    const purchase = sentBodies.find((b) => 'price_id' in b)!;
    assert.deepEqual(Object.keys(purchase).sort(), ['full_code', 'price_id', 'quantity']);
    assert.deepEqual(errors, []);

    // Opening the used link again explains it instead of selling twice.
    await page.goto(created.body.url);
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /already been used/i);
    await page.close();
  });
});
