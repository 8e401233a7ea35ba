/**
 * Stack's cross-domain hand-off in Chromium: the official `@stackframe/js`
 * SDK (2.8.108, `hexclave_cross_domain_*` parameters, and 2.8.102, `stack_cross_domain_*`),
 * bundled for the browser with esbuild, runs in a page served from another origin (another port
 * on localhost). It calls `redirectToSignIn()` to Gatehouse's hosted sign-in page, the user signs
 * in there, the hosted page hands the session over with a one-time PKCE code
 * (`POST /auth/oauth/cross-domain/authorize`), and the app's `callOAuthCallback()` redeems it:
 * the app is signed in on its own origin (127.0.0.1, so no cookie is shared with Gatehouse's
 * localhost). A second redirectToSignIn() after the app forgot its session comes straight back
 * signed in (the hosted page hands its session over at once). Also: the hosted page explains an untrusted
 * `after_auth_return_to` instead of dropping it.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { api, createProject, createProjectKeys } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium } from '../helpers/browser.ts';

const repo = join(import.meta.dirname, '../..');

/** The official SDK of one version as a browser bundle exposing `window.StackClientApp`. */
async function bundleSdk(specifier: string): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { StackClientApp } from '${specifier}'; window.StackClientApp = StackClientApp;`,
      resolveDir: repo,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    write: false,
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

/** The app page: signed in or out, and the OAuth callback route the hand-off comes back to. */
function appHtml(config: Record<string, string>): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Other-origin app</title>
<script>window.process = { env: {} }; window.CONFIG = ${JSON.stringify(config).replace(/</g, '\\u003c')};</script>
<script type="module">
  await import('/sdk.js');
  const c = window.CONFIG;
  const app = new window.StackClientApp({
    projectId: c.projectId, publishableClientKey: c.publishableClientKey, baseUrl: c.gatehouse, tokenStore: 'cookie',
    urls: { signIn: c.gatehouse + '/projects/' + c.projectId + '/handler/sign-in', oauthCallback: '/handler/oauth-callback' },
  });
  window.app = app;
  const status = document.getElementById('status');
  try {
    if (location.pathname === '/handler/oauth-callback') { await app.callOAuthCallback(); }
    else {
      const user = await app.getUser();
      status.textContent = user ? 'signed in as ' + user.primaryEmail : 'signed out';
    }
  } catch (e) { status.textContent = 'error: ' + (e && e.message || e); }
</script></head><body><p id="status">loading</p></body></html>`;
}

describe(`cross-domain hand-off with the official SDK in Chromium [${testDialects()[0]}]`, () => {
  let server: TestServer;
  let front: Server;
  let appServer: Server;
  let gatehouse = '';
  let appOrigin = '';
  let browser: Browser;
  const bundles: Record<string, string> = {};
  let currentSdk = '';

  before(async () => {
    // Gatehouse behind a front server, so its public origin (localhost:<port>) is known up front.
    front = createServer();
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    gatehouse = `http://localhost:${(front.address() as { port: number }).port}`;
    server = await startTestServer(testDialects()[0]!, { baseUrl: gatehouse });
    front.on('request', (req, res) => server.gatehouse.handler(req, res));
    bundles['@stackframe/js'] = await bundleSdk('@stackframe/js');
    bundles['stackframe-js-2-8-102'] = await bundleSdk('stackframe-js-2-8-102');
    appServer = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/sdk.js') {
        res.setHeader('content-type', 'text/javascript');
        res.end(bundles[currentSdk]);
        return;
      }
      res.setHeader('content-type', 'text/html');
      res.end(appHtml(JSON.parse(decodeURIComponent(/(?:^|; )cfg=([^;]*)/.exec(req.headers.cookie ?? '')?.[1] ?? '%7B%7D'))));
    });
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
    // Another host as well as another port: cookies are per host, so nothing is shared with Gatehouse's.
    appOrigin = `http://127.0.0.1:${(appServer.address() as { port: number }).port}`;
    browser = await openChromium();
  });

  after(async () => {
    await closeChromium(browser);
    await new Promise<void>((resolve) => (appServer ? appServer.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await server?.close();
  });

  for (const sdk of ['@stackframe/js', 'stackframe-js-2-8-102']) {
    it(`${sdk}: redirectToSignIn() on another origin, sign in on the hosted page, come back signed in`, async () => {
      currentSdk = sdk;
      const project = await createProject(server, { allow_localhost: true, credential_enabled: true, sign_up_enabled: true });
      const keys = await createProjectKeys(server, project.admin);
      const email = `cross-${Date.now()}@example.com`;
      const password = 'correct-horse-battery';
      const created = await api(server, 'POST', '/users', project.server, {
        primary_email: email,
        primary_email_auth_enabled: true,
        password,
      });
      assert.equal(created.status, 201, created.text);

      const context = await browser.newContext();
      const configCookie = {
        name: 'cfg',
        value: encodeURIComponent(
          JSON.stringify({ projectId: project.projectId, publishableClientKey: keys.publishableClientKey, gatehouse }),
        ),
        url: appOrigin,
      };
      await context.addCookies([configCookie]);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${appOrigin}/somewhere?x=1`);
      await page.locator('#status', { hasText: 'signed out' }).waitFor({ timeout: 20_000 });

      await page.evaluate(() => {
        void (window as unknown as { app: { redirectToSignIn(): Promise<void> } }).app.redirectToSignIn();
      });
      await page.waitForURL((url) => url.origin === gatehouse && url.pathname === `/projects/${project.projectId}/handler/sign-in`, {
        timeout: 20_000,
      });
      const hosted = new URL(page.url());
      assert.ok(
        [...hosted.searchParams.keys()].some((k) => /_cross_domain_code_challenge$/.test(k)),
        hosted.search,
      );
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();

      await page.waitForURL((url) => url.origin === appOrigin && url.pathname === '/somewhere', { timeout: 30_000 });
      await page.locator('#status', { hasText: `signed in as ${email}` }).waitFor({ timeout: 20_000 });
      assert.equal(new URL(page.url()).searchParams.get('x'), '1');

      // Signed out of the app only (its cookies cleared): the hosted page still has a session, so
      // redirectToSignIn() comes straight back signed in, without the form.
      await context.clearCookies({ domain: '127.0.0.1' });
      await context.addCookies([configCookie]);
      await page.goto(`${appOrigin}/again`);
      await page.locator('#status', { hasText: 'signed out' }).waitFor({ timeout: 20_000 });
      await page.evaluate(() => {
        void (window as unknown as { app: { redirectToSignIn(): Promise<void> } }).app.redirectToSignIn();
      });
      await page.waitForURL((url) => url.origin === appOrigin && url.pathname === '/again', { timeout: 30_000 });
      await page.locator('#status', { hasText: `signed in as ${email}` }).waitFor({ timeout: 20_000 });
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  it('the hosted sign-in page says why it will not return to an untrusted after_auth_return_to', async () => {
    const project = await createProject(server, { allow_localhost: false, domains: [] });
    const page = await browser.newPage();
    await page.goto(
      `${gatehouse}/projects/${project.projectId}/handler/sign-in?after_auth_return_to=${encodeURIComponent('https://evil.example/steal')}`,
    );
    const notice = page.getByTestId('return-to-notice');
    await notice.waitFor({ timeout: 20_000 });
    assert.match((await notice.textContent()) ?? '', /https:\/\/evil\.example.*not one of this project’s trusted domains/);
    await page.goto(
      `${gatehouse}/projects/${project.projectId}/handler/sign-in?after_auth_return_to=${encodeURIComponent('/relative/is/fine')}`,
    );
    await page.getByLabel('Email', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('return-to-notice').count(), 0);
    await page.close();
  });
});
