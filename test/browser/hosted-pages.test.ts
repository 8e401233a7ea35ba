/**
 * Browser test: real Chromium (playwright-core, /usr/bin/chromium, headless) against a
 * freshly started server with a real SMTP receiver. The hosted pages and an example React app
 * (examples/react-app, built with esbuild and served beside the API on the same origin) are
 * driven end to end: sign up on /handler/sign-up, verify the email from the received link, see it
 * verified in account settings, sign out, sign in again, change the display name, and land on
 * `after_auth_return_to`. Screenshots of each page go to test-artifacts/browser/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { createProject } from '../helpers/api.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
// @ts-expect-error -- plain ESM build script without type declarations
import { buildExample, exampleHtml } from '../../examples/react-app/build.mjs';
import { closeChromium, openChromium } from '../helpers/browser.ts';

const ARTIFACTS = 'test-artifacts/browser';

describe(`hosted pages in Chromium [${testDialects()[0]}]`, () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let front: Server;
  let origin = '';
  let browser: Browser;
  let page: Page;
  const email = `browser-${Date.now()}@example.com`;
  const password = 'correct-horse-battery';
  let shot = 0;
  const pageErrors: string[] = [];
  const screenshot = async (name: string) => {
    await page.screenshot({ path: `${ARTIFACTS}/${String(++shot).padStart(2, '0')}-${name}.png`, fullPage: true });
  };

  before(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    smtp = await startSmtpReceiver();
    // The front server serves the example app at /app and hands everything else to Gatehouse's
    // Node handler, so the app, the hosted pages and the API share one origin (and its cookies).
    front = createServer();
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    origin = `http://localhost:${(front.address() as { port: number }).port}`;
    server = await startTestServer(testDialects()[0]!, { smtpUrl: smtp.url, baseUrl: origin });
    const exampleJs: string = await buildExample();
    front.on('request', (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/app/example.js') {
        res.setHeader('content-type', 'text/javascript');
        res.end(exampleJs);
        return;
      }
      if (path === '/app' || path.startsWith('/app/')) {
        res.setHeader('content-type', 'text/html');
        res.end(exampleHtml({ projectId: 'internal', baseUrl: origin }));
        return;
      }
      server.gatehouse.handler(req, res);
    });
    browser = await openChromium();
    page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) pageErrors.push(`${page.url()}: ${m.text()}`);
    });
  });

  after(async () => {
    await closeChromium(browser);
    front?.closeAllConnections();
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await server?.close();
    await smtp?.stop();
  });

  it('signs up on /handler/sign-up and lands on after_auth_return_to', async () => {
    await page.goto(`${origin}/handler/sign-up?after_auth_return_to=${encodeURIComponent('/app/profile')}`);
    await page.getByLabel('Password', { exact: true }).waitFor();
    assert.match(await page.locator('.gh-brand').innerText(), /\S/, 'the project name is shown');
    await screenshot('sign-up');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Password must be at least 8 characters long.').waitFor();
    await screenshot('sign-up-too-short');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${origin}/app/profile`);
    await page.getByTestId('email').waitFor();
    assert.equal(await page.getByTestId('email').innerText(), email);
    await screenshot('example-app-after-sign-up');
  });

  it('verifies the email through the link in the verification email', async () => {
    const mail = await smtp.waitFor(email);
    const link = /https?:\/\/[^\s"<>]+email-verification[^\s"<>]*/.exec(mail.html || mail.text)?.[0]?.replace(/&amp;/g, '&');
    assert.ok(link, `a verification link in: ${mail.text}`);
    await page.goto(link);
    await page.getByText('Your email has been verified.').waitFor();
    await screenshot('email-verified');
    await page.goto(`${origin}/handler/account-settings`);
    await page.getByTestId('primary-email-status').waitFor();
    assert.equal(await page.getByTestId('primary-email-status').innerText(), 'Verified');
    await screenshot('account-settings-verified');
  });

  it('signs out, and the protected page sends the browser to sign-in', async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => !url.pathname.startsWith('/handler/sign-out'));
    await screenshot('after-sign-out');
    const cookies = await page.context().cookies();
    assert.ok(!cookies.some((c) => c.name === 'stack-refresh-internal' && c.value), 'the refresh cookie is gone');
    await page.goto(`${origin}/app/profile`);
    await page.waitForURL((url) => url.pathname === '/handler/sign-in');
    assert.equal(new URL(page.url()).searchParams.get('after_auth_return_to'), '/app/profile');
  });

  it('signs in again, changes the display name, and returns to after_auth_return_to', async () => {
    await page.getByLabel('Email', { exact: true }).waitFor();
    await screenshot('sign-in');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Wrong e-mail or password.').waitFor();
    await screenshot('sign-in-wrong-password');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${origin}/app/profile`);
    await page.getByTestId('email').waitFor();

    await page.goto(`${origin}/app/settings`);
    await page.getByLabel('Display name').waitFor();
    await page.getByLabel('Display name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await screenshot('example-app-settings-saved');

    await page.goto(`${origin}/handler/sign-in?after_auth_return_to=${encodeURIComponent('/app/profile?from=sign-in')}`);
    await page.getByText('You are already signed in.').waitFor();
    await page.goto(`${origin}/app/profile`);
    await page.getByTestId('display-name').waitFor();
    assert.equal(await page.getByTestId('display-name').innerText(), 'Ada Lovelace');
    await screenshot('example-app-profile');
  });

  it('renders the sign-in page usably on a phone and in dark mode', async () => {
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
    await phone.goto(`${origin}/handler/forgot-password`);
    await phone.getByLabel('Email', { exact: true }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `no horizontal scrolling (scrollWidth ${width})`);
    const bg = await phone.evaluate(() => getComputedStyle(document.querySelector('.gh-card')!).backgroundColor);
    assert.equal(bg, 'rgb(24, 27, 33)', 'dark card background');
    assert.match(await phone.title(), /^Reset your password · \S/, 'the page title names the page and the project');
    assert.equal(await phone.evaluate(() => document.activeElement?.tagName), 'H1', 'focus starts at the heading');
    await phone.keyboard.press('Tab');
    assert.equal(
      await phone.evaluate(() => document.activeElement?.getAttribute('type')),
      'email',
      'keyboard focus reaches the email field first',
    );
    await phone.screenshot({ path: `${ARTIFACTS}/${String(++shot).padStart(2, '0')}-forgot-password-phone-dark.png`, fullPage: true });
    await phone.close();
  });

  it("serves another project's pages under /projects/{id}/handler with its name and logo", async () => {
    // A PNG: base64 logos are stored by Gatehouse and served from its own URL; SVG is refused.
    const logo = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const { projectId } = await createProject(server, { sign_up_enabled: true }, { display_name: 'Rocket Club', logo_url: logo });
    await page.goto(`${origin}/projects/${projectId}/handler/sign-up`);
    await page.getByLabel('Password', { exact: true }).waitFor();
    assert.equal(await page.locator('.gh-brand span').innerText(), 'Rocket Club');
    assert.equal(await page.locator('.gh-brand img').getAttribute('alt'), 'Rocket Club logo');
    assert.match((await page.locator('.gh-brand img').getAttribute('src')) ?? '', /\/images\/[0-9a-f-]{36}$/);
    assert.equal(await page.locator('.gh-brand img').evaluate((img) => (img as HTMLImageElement).naturalWidth), 1, 'the stored logo loads');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/projects/${projectId}/handler/sign-in`);
    await page.getByLabel('Password', { exact: true }).waitFor();
    await screenshot('other-project-sign-in');
  });

  it('keeps end users of a project without a trusted domain on its own pages, never the dashboard', async () => {
    const { projectId } = await createProject(server, { sign_up_enabled: true }, { display_name: 'No Domain Co' });
    const handler = `${origin}/projects/${projectId}/handler`;
    const context = await browser.newContext();
    const p = await context.newPage();
    await p.goto(`${handler}/sign-up`);
    await p.getByLabel('Email', { exact: true }).fill(`nodomain-${Date.now()}@example.com`);
    await p.getByLabel('Password', { exact: true }).fill(password);
    await p.getByRole('button', { name: 'Sign up' }).click();
    await p.waitForURL(`${handler}/account-settings`);
    await p.getByRole('heading', { name: 'Account settings' }).waitFor();
    const email = await p.getByTestId('primary-email').innerText();
    await p.goto(`${handler}/sign-out`);
    await p.waitForURL(`${handler}/sign-in`);
    await p.getByLabel('Email', { exact: true }).fill(email);
    await p.getByLabel('Password', { exact: true }).fill(password);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await p.waitForURL(`${handler}/account-settings`);
    await p.getByRole('heading', { name: 'Account settings' }).waitFor();
    await context.close();
  });

  it('raised no uncaught errors or Content-Security-Policy violations in any page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
