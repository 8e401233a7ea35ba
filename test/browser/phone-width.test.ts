/**
 * Browser test: a new user API key in the hosted account settings wraps
 * inside its card and has a Copy button that fills the clipboard; at 375 px no dashboard page
 * with keys, OAuth providers and long emails scrolls sideways (their tables become cards).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { api, createProjectKeys, internal } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium, signUpOwnerWithProject } from '../helpers/browser.ts';

const OWNER = { email: 'phone-owner@example.com', password: 'a long enough password 1' };
const PASSWORD = 'correct-horse-battery';
const LONG_EMAIL = `a-very-long-mailbox-name-that-does-not-fit-on-a-phone-${'x'.repeat(40)}@subdomain.example-company.com`;

/** The page's horizontal overflow in CSS px (0 when nothing scrolls sideways). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe(`phone width in Chromium [${testDialects()[0]}]`, () => {
  let server: TestServer;
  let browser: Browser;
  let projectId = '';
  let ownerState: Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>;

  before(async () => {
    server = await startTestServer(testDialects()[0]!);
    browser = await openChromium();
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    projectId = await signUpOwnerWithProject(page, server.url, OWNER);
    ownerState = await ctx.storageState();
    await ctx.close();
    const signIn = await api(server, 'POST', '/auth/password/sign-in', internal.client, { email: OWNER.email, password: OWNER.password });
    const admin = { projectId, accessType: 'admin' as const, adminAccessToken: signIn.body.access_token as string };
    const patch = await api(server, 'PATCH', '/internal/projects/current', admin, {
      config: {
        allow_user_api_keys: true,
        oauth_providers: [
          { id: 'github', type: 'standard', client_id: `Iv1.${'0123456789abcdef'.repeat(4)}`, client_secret: 'secret', enabled: true },
        ],
      },
    });
    assert.equal(patch.status, 200, patch.text);
    await createProjectKeys(server, admin);
    const user = await api(server, 'POST', '/users', admin, {
      primary_email: LONG_EMAIL,
      primary_email_auth_enabled: true,
      password: PASSWORD,
      display_name: 'Ada',
    });
    assert.equal(user.status, 201, user.text);
  });

  after(async () => {
    await closeChromium(browser);
    await server?.close();
  });

  it('shows a new user API key wrapped in its card with a Copy button, and the page does not scroll sideways', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    await page.goto(
      `${server.url}/projects/${projectId}/handler/sign-in?after_auth_return_to=${encodeURIComponent(`/projects/${projectId}/handler/account-settings`)}`,
    );
    await page.getByLabel('Email', { exact: true }).fill(LONG_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/account-settings/);
    await page.getByLabel('Display name').waitFor();
    await page.getByLabel('Key description', { exact: true }).fill('Laptop');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = page.getByLabel('New API key', { exact: true });
    await key.waitFor();
    const value = (await key.textContent()) ?? '';
    assert.ok(value.length > 20, value);
    await page.getByRole('button', { name: 'Copy New API key' }).click();
    await page.getByRole('button', { name: 'Copy New API key' }).getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), value);
    assert.equal(await sidewaysOverflow(page), 0);
    await context.close();
  });

  it('keeps keys, OAuth providers, users and emails inside 375 px in the dashboard', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, storageState: ownerState });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/projects/${projectId}/keys`);
    await page.getByRole('button', { name: 'New keys' }).click();
    await page.getByRole('button', { name: 'Create keys' }).click();
    await page.getByTestId('env-snippet').waitFor();
    await page.getByRole('table', { name: 'Keys' }).waitFor();
    assert.equal(await sidewaysOverflow(page), 0, 'keys page');
    await page.goto(`${server.url}/projects/${projectId}/auth-methods`);
    await page.getByRole('table', { name: 'OAuth providers' }).waitFor();
    assert.equal(await sidewaysOverflow(page), 0, 'auth methods page');
    await page.goto(`${server.url}/projects/${projectId}/users`);
    await page.getByText(LONG_EMAIL).first().waitFor();
    assert.equal(await sidewaysOverflow(page), 0, 'users page');
    await page.getByRole('link', { name: 'Ada' }).first().click();
    await page.getByRole('table', { name: 'Email addresses' }).waitFor();
    assert.equal(await sidewaysOverflow(page), 0, 'user page');
    await page.goto(`${server.url}/projects/${projectId}/emails`);
    await page.getByRole('heading', { name: 'Sent emails and outbox' }).waitFor();
    assert.equal(await sidewaysOverflow(page), 0, 'emails page');
    await context.close();
  });
});
