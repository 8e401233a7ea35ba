/**
 * Browser test: the hosted pages' refresh token was readable by any script
 * on the page (`document.cookie`). Now the server's same-origin cookie bridge
 * (server-bin/api/cookie-bridge.ts) keeps it in an HttpOnly cookie and the page holds a
 * placeholder. Real Chromium signs in on /handler/sign-in; `document.cookie` holds no refresh
 * token; the session survives a reload and a token refresh; sign-out clears the HttpOnly cookie;
 * a request from another site (foreign Origin, or no bridge header) gets no swap.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { INTERNAL_KEYS, startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium } from '../helpers/browser.ts';

const PLACEHOLDER = /^gatehouse-httponly-cookie\.[0-9a-f]{16}$/;

describe(`HttpOnly refresh cookie of the hosted pages in Chromium [${testDialects()[0]}]`, () => {
  let server: TestServer;
  let front: Server;
  let origin = '';
  let browser: Browser;
  let page: Page;
  const email = `bridge-${Date.now()}@example.com`;
  const password = 'correct-horse-battery';
  const pageErrors: string[] = [];

  const cookie = async (name: string) => (await page.context().cookies()).find((c) => c.name === name);
  /** Refreshes an access token as the SDK does (form POST to /auth/oauth/token), from Node. */
  const refresh = (refreshToken: string, headers: Record<string, string>) =>
    fetch(`${origin}/api/v1/auth/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: 'internal',
        client_secret: INTERNAL_KEYS.publishableClientKey,
      }).toString(),
    });

  before(async () => {
    front = createServer();
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    origin = `http://localhost:${(front.address() as { port: number }).port}`;
    server = await startTestServer(testDialects()[0]!, { baseUrl: origin });
    front.on('request', (req, res) => server.gatehouse.handler(req, res));
    const res = await fetch(`${server.url}/api/v1/users`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'server',
        'x-stack-secret-server-key': INTERNAL_KEYS.secretServerKey,
      },
      body: JSON.stringify({ primary_email: email, primary_email_auth_enabled: true, password }),
    });
    assert.equal(res.status, 201, await res.text());
    browser = await openChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  });

  after(async () => {
    await closeChromium(browser);
    front?.closeAllConnections();
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await server?.close();
  });

  it('signs in on the hosted page; the refresh token is in an HttpOnly cookie, document.cookie only has a placeholder', async () => {
    await page.goto(`${origin}/handler/sign-in?after_auth_return_to=${encodeURIComponent('/handler/account-settings')}`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${origin}/handler/account-settings`);
    assert.equal(await page.getByTestId('primary-email').innerText(), email);

    const httpOnly = await cookie('gatehouse-refresh-internal');
    assert.ok(httpOnly?.value, 'the server set the refresh cookie');
    assert.equal(httpOnly.httpOnly, true);
    assert.equal(httpOnly.sameSite, 'Lax');
    assert.equal(httpOnly.path, '/');
    const days = (httpOnly.expires - Date.now() / 1000) / 86400;
    assert.ok(days > 29 && days <= 30.01, `lives 30 days (${days})`);
    const visible = await page.evaluate(() => document.cookie);
    assert.ok(!visible.includes(httpOnly.value), `document.cookie has no refresh token: ${visible}`);
    assert.match(decodeURIComponent((await cookie('stack-refresh-internal'))!.value), PLACEHOLDER);
    // The refresh token is a real one: it refreshes from Node (no browser involved).
    assert.equal((await refresh(httpOnly.value, {})).status, 200);
    assert.deepEqual(pageErrors, []);
  });

  it('keeps the session across a reload and a token refresh (the access cookie removed)', async () => {
    await page.reload();
    await page.getByTestId('primary-email').waitFor();
    assert.equal(await page.getByTestId('primary-email').innerText(), email);
    // Without an access token the SDK refreshes with the placeholder, which the server swaps.
    await page.evaluate(() => {
      document.cookie = 'stack-access-internal=; max-age=0; path=/';
    });
    await page.reload();
    await page.getByTestId('primary-email').waitFor();
    assert.equal(await page.getByTestId('primary-email').innerText(), email);
    assert.ok((await cookie('stack-access-internal'))?.value, 'a refreshed access token was stored');
    const fromPage = await page.evaluate(async () => {
      const placeholder = decodeURIComponent(/stack-refresh-internal=([^;]*)/.exec(document.cookie)![1]!);
      const res = await fetch('/api/v1/auth/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-gatehouse-cookie-bridge': '1' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: placeholder,
          client_id: 'internal',
          client_secret: '__stack_public_client__',
        }).toString(),
      });
      return { status: res.status, body: (await res.json()) as { access_token?: string } };
    });
    assert.equal(fromPage.status, 200, JSON.stringify(fromPage.body));
    assert.equal(typeof fromPage.body.access_token, 'string');
    assert.deepEqual(pageErrors, []);
  });

  it('does not swap the placeholder for a request from another site or without the bridge header', async () => {
    const token = (await cookie('gatehouse-refresh-internal'))!.value;
    const placeholder = decodeURIComponent((await cookie('stack-refresh-internal'))!.value);
    const jar = `gatehouse-refresh-internal=${token}`;
    const sameOrigin = await refresh(placeholder, {
      cookie: jar,
      'x-gatehouse-cookie-bridge': '1',
      origin,
      'sec-fetch-site': 'same-origin',
    });
    assert.equal(sameOrigin.status, 200, 'the swap works for a same-origin bridge request (control)');
    for (const [what, headers] of [
      ['no bridge header', { cookie: jar, origin, 'sec-fetch-site': 'same-origin' }],
      ['a foreign Origin', { cookie: jar, 'x-gatehouse-cookie-bridge': '1', origin: 'https://attacker.example' }],
      ['Sec-Fetch-Site: cross-site', { cookie: jar, 'x-gatehouse-cookie-bridge': '1', 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      const res = await refresh(placeholder, headers);
      assert.notEqual(res.status, 200, `${what}: ${await res.text()}`);
      assert.equal(res.headers.get('set-cookie'), null, `${what}: no cookie set`);
    }
    // A cross-site page in the browser: 127.0.0.1 is another site than localhost.
    const other = await browser.newPage();
    try {
      await other.goto(`${server.url}/health`);
      const status = await other.evaluate(
        async ({ url, placeholder }) => {
          try {
            const res = await fetch(`${url}/api/v1/auth/oauth/token`, {
              method: 'POST',
              credentials: 'include',
              headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-gatehouse-cookie-bridge': '1' },
              body: new URLSearchParams({
                grant_type: 'refresh_token',
                refresh_token: placeholder,
                client_id: 'internal',
                client_secret: '__stack_public_client__',
              }).toString(),
            });
            return res.status;
          } catch {
            return 'blocked';
          }
        },
        { url: origin, placeholder },
      );
      assert.notEqual(status, 200, 'a cross-site script gets no access token');
    } finally {
      await other.close();
    }
  });

  it('signs out and clears the HttpOnly cookie', async () => {
    await page.goto(`${origin}/handler/sign-out`);
    await page.waitForURL((url) => !url.pathname.startsWith('/handler/sign-out'));
    assert.equal(await cookie('gatehouse-refresh-internal'), undefined);
    assert.ok(!(await cookie('stack-refresh-internal'))?.value);
  });
});
