/**
 * Browser test: in real Chromium, a dashboard owner adds a webhook endpoint on the
 * Webhooks page, copies its secret, sends a test event that a loopback receiver verifies with the
 * `standardwebhooks` package, and sees the delivery in the endpoint's log.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { testDialects } from '../helpers/dialects.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { closeChromium, openChromium } from '../helpers/browser.ts';

const ARTIFACTS = 'test-artifacts/webhooks';
const OWNER = { email: 'owner@example.com', password: 'a long enough password 1' };

describe(`dashboard webhooks page in Chromium [${testDialects()[0]}]`, () => {
  let browser: Browser;
  let server: TestServer;
  let receiver: WebhookReceiver;
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestServer(testDialects()[0]!);
    receiver = await startWebhookReceiver();
    browser = await openChromium();
  });
  after(async () => {
    await closeChromium(browser);
    await receiver?.close();
    await server?.close();
  });

  it('adds an endpoint, sends a test event the receiver verifies, and shows it in the delivery log', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Welcome to Gatehouse' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    const repeat = page.getByLabel('Repeat password');
    if (await repeat.count()) await repeat.fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Project name').fill('Hooked');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Hooked' }).waitFor();

    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByText('No endpoints yet.').waitFor();
    await page.getByRole('button', { name: 'New endpoint' }).click();
    await page.getByRole('dialog', { name: 'Add an endpoint' }).waitFor();
    await page.getByLabel('Endpoint URL').fill('ftp://nope');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Enter the full URL of your endpoint').waitFor();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description').fill('Sync users');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    assert.match(secret, /^whsec_/);
    await page.getByText(receiver.url, { exact: true }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/endpoint-added.png`, fullPage: true });

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByTestId('webhook-test-result').filter({ hasText: 'Test event delivered.' }).waitFor();
    const [received] = await receiver.waitFor(1);
    const verified = new Webhook(secret).verify(received!.body, {
      'webhook-id': String(received!.headers['webhook-id']),
      'webhook-timestamp': String(received!.headers['webhook-timestamp']),
      'webhook-signature': String(received!.headers['webhook-signature']),
    }) as { type: string };
    assert.equal(verified.type, 'stack.test');

    await page.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByTestId('webhook-deliveries');
    await log.getByText(String(received!.headers['webhook-id'])).waitFor();
    await log.getByText('Delivered').waitFor();
    await log.getByText('stack.test').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/delivery-log.png`, fullPage: true });
    assert.deepEqual(errors, []);
  });
});
