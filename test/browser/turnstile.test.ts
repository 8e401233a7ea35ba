/**
 * Browser test: real Chromium signs up on a project's hosted sign-up page with Cloudflare
 * Turnstile on. Cloudflare's script (the network edge we do not own) is answered by a stand-in
 * defining `window.turnstile`, and the server verifies tokens with a loopback `siteverify` server:
 * the invisible token is refused, the page answers BOT_CHALLENGE_REQUIRED with the visible widget,
 * and its token signs the user up. The page's Content-Security-Policy must let the script in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { api, createProject, type Caller } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startSiteverifyServer } from '../helpers/siteverify.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium } from '../helpers/browser.ts';

const SECRET = '0x4AAAAAAAbrowser-secret-key';

/** Stand-in for https://challenges.cloudflare.com/turnstile/v0/api.js: invisible runs yield a refused token, the visible widget a button. */
const FAKE_TURNSTILE = `
  (() => {
    let next = 0; const widgets = {};
    window.turnstile = {
      render(el, o) {
        const id = 'w' + (++next); widgets[id] = o;
        if (o.appearance === 'always') {
          const b = document.createElement('button'); b.type = 'button'; b.textContent = 'I am human';
          b.onclick = () => o.callback('ok:' + o.action); el.appendChild(b);
        }
        return id;
      },
      execute(id) { setTimeout(() => widgets[id].callback('bad'), 0); },
      remove(id) { delete widgets[id]; },
    };
  })();`;

describe(`Turnstile on the hosted sign-up page in Chromium [${testDialects()[0]}]`, () => {
  let server: TestServer;
  let siteverify: Awaited<ReturnType<typeof startSiteverifyServer>>;
  let browser: Browser;
  let page: Page;
  let projectId: string;
  let serverCaller: Caller;
  const pageErrors: string[] = [];
  const scriptRequests: string[] = [];

  before(async () => {
    siteverify = await startSiteverifyServer(SECRET);
    server = await startTestServer(testDialects()[0]!, { turnstile: { verifyUrl: siteverify.url, timeoutMs: 2000 } });
    const project = await createProject(server);
    projectId = project.projectId;
    serverCaller = project.server;
    const set = await api(server, 'PUT', '/internal/bot-challenge/turnstile', project.admin, {
      site_key: '0x4AAAAAAAbrowser-site',
      secret_key: SECRET,
    });
    assert.equal(set.status, 200, set.text);
    browser = await openChromium();
    page = await browser.newPage({ viewport: { width: 900, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) pageErrors.push(m.text());
    });
    await page.route('https://challenges.cloudflare.com/**', (route) => {
      scriptRequests.push(route.request().url());
      return route.fulfill({ contentType: 'text/javascript', body: FAKE_TURNSTILE });
    });
  });

  after(async () => {
    await closeChromium(browser);
    await server?.close();
    await siteverify?.stop();
  });

  it('retries with the visible widget after BOT_CHALLENGE_REQUIRED and signs the user up', async () => {
    const email = `turnstile-${Date.now()}@example.com`;
    await page.goto(`${server.url}/projects/${projectId}/handler/sign-up`);
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('velvet tractor 93');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText('Please complete the security check to continue.').waitFor();
    await page.getByRole('button', { name: 'I am human' }).click();
    await page
      .waitForURL((url) => url.pathname.endsWith('/account-settings'), { timeout: 15_000 })
      .catch(async (error) => {
        throw new Error(`stuck at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 500)} ${pageErrors.join(' | ')}`, {
          cause: error,
        });
      });
    assert.deepEqual(scriptRequests, ['https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit']);
    assert.deepEqual(
      siteverify.calls.map((c) => c.response),
      ['bad', 'ok:sign_up_with_credential'],
    );
    const users = await api(server, 'GET', '/users', serverCaller);
    assert.deepEqual(
      users.body.items.map((u: { primary_email: string }) => u.primary_email),
      [email],
    );
    assert.deepEqual(pageErrors, []);
  });
});
