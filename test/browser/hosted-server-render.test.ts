/**
 * Browser test (real Chromium, playwright-core): the hosted sign-in page arrives rendered by the
 * server (ui/hosted/server-render.tsx, server-bin/hosted-render.ts), and what a visitor does on it
 * before the page's script has run is not lost (ui/hosted/early-input.ts): the values typed stay,
 * a submit is replayed once the script has rendered, and so is a click on a tab. The script is
 * held back by the test (a route that answers it only when told). The sign-in API behind the page
 * is tested on every dialect by core/auth-password/sign-in.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page, Route } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { browserTestDialects, closeChromium, openChromium } from '../helpers/browser.ts';

describe(`the hosted sign-in page before its script has run [${browserTestDialects()[0]}]`, () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startTestServer(browserTestDialects()[0]!);
    browser = await openChromium();
  });
  after(async () => {
    await closeChromium(browser);
    await server?.close();
  });

  /** Opens sign-in with the entry script held back; `release` lets it load. */
  async function openHeld(): Promise<{ page: Page; release: () => void }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/handler\/handler\.js/, async (route: Route) => {
      await released;
      await route.continue();
    });
    // DOMContentLoaded waits for module scripts: wait for the response, then for the form.
    await page.goto(`${server.url}/handler/sign-in`, { waitUntil: 'commit' });
    await page.locator('form input[type="email"]').waitFor();
    return { page, release };
  }

  it('shows a usable form from the HTML, and replays a submit made before the script ran', async () => {
    const { page, release } = await openHeld();
    const form = page.getByRole('form', { name: 'Sign in with email and password' });
    await form.getByLabel('Email').fill('nobody-here@example.com');
    await form.getByLabel('Password', { exact: true }).fill('not-the-password-1');
    await form.getByRole('button', { name: 'Sign in' }).click();
    assert.equal(
      await page.evaluate(() => document.getElementById('root')!.hasAttribute('data-server-rendered')),
      true,
      'still the server markup',
    );
    release();
    await page.getByText('Wrong e-mail or password.').waitFor();
    assert.equal(await page.locator('input[name="email"]').inputValue(), 'nobody-here@example.com', 'the typed address is kept');
    // The held-input script has stepped aside: a link now works as the page's router makes it.
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/handler\/forgot-password$/);
    await page.context().close();
  });

  it('replays a click on the magic-link tab made before the script ran', async () => {
    const { page, release } = await openHeld();
    await page.getByRole('tab', { name: 'Email link' }).click();
    release();
    await page.getByRole('form', { name: 'Sign in with a magic link' }).waitFor();
    await page.context().close();
  });
});
