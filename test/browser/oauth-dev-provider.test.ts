/**
 * Browser test: real Chromium signs in on a project's hosted sign-in page with the
 * built-in development OpenID provider (`type: "shared"`): provider button → the provider's page
 * to pick a test identity → Gatehouse callback → hosted oauth-callback page (token exchange) →
 * signed in; account settings then list the linked account. Screenshots in test-artifacts/oauth/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { api, createProject, type Caller } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium } from '../helpers/browser.ts';

const ARTIFACTS = 'test-artifacts/oauth';

describe(`OAuth with the development provider in Chromium [${testDialects()[0]}]`, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let projectId: string;
  let serverCaller: Caller;
  const pageErrors: string[] = [];

  before(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestServer(testDialects()[0]!);
    const project = await createProject(server, { oauth_providers: [{ id: 'github', type: 'shared' }] });
    projectId = project.projectId;
    serverCaller = project.server;
    browser = await openChromium();
    page = await browser.newPage({ viewport: { width: 900, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  });

  after(async () => {
    await closeChromium(browser);
    await server?.close();
  });

  it('signs in with the development provider from the hosted sign-in page and shows the linked account', async () => {
    await page.goto(`${server.url}/projects/${projectId}/handler/sign-in`);
    const button = page.getByRole('button', { name: 'Sign in with GitHub' });
    await button.waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/01-sign-in.png`, fullPage: true });
    await button.click();
    await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
    assert.ok(page.url().startsWith(`${server.url}/api/v1/auth/oauth/dev-provider/authorize?`), page.url());
    await page.screenshot({ path: `${ARTIFACTS}/02-dev-provider.png`, fullPage: true });
    await page.getByRole('button', { name: /Continue as Ada Lovelace/ }).click();
    // The hosted oauth-callback page exchanges the code, then leaves for the after-sign-in page.
    await page
      .waitForURL((url) => !url.pathname.includes('/oauth/') && !url.pathname.endsWith('/oauth-callback'), { timeout: 15_000 })
      .catch(async (error) => {
        throw new Error(`stuck at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 500)} ${pageErrors.join(' | ')}`, {
          cause: error,
        });
      });
    await page.goto(`${server.url}/projects/${projectId}/handler/account-settings`);
    await page.getByRole('heading', { name: 'Linked accounts' }).waitFor();
    await page.getByText('ada@example.com').first().waitFor();
    await page.getByRole('button', { name: 'Disconnect GitHub' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/03-account-settings.png`, fullPage: true });

    const users = await api(server, 'GET', '/users', serverCaller);
    const ada = users.body.items.find((u: { primary_email: string }) => u.primary_email === 'ada@example.com');
    assert.ok(ada, 'the user was created');
    assert.equal(ada.display_name, 'Ada Lovelace');
    assert.deepEqual(
      ada.oauth_providers.map((p: { id: string }) => p.id),
      ['github'],
    );
    assert.deepEqual(pageErrors, []);
  });
});
