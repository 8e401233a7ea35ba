/**
 * Browser test (issue 31, the identity provider): real Chromium (playwright-core,
 * /usr/bin/chromium, headless) against a freshly started server, on the first dialect in
 * TEST_DIALECTS. A third-party app (openid-client) sends the browser to the project's issuer with
 * PKCE, a nonce and a state; the user signs in on the hosted sign-in page, approves on the consent
 * page, and the app gets a code whose ID token openid-client validates (nonce included). A user
 * with TOTP is stopped at the hosted MFA page, and no code is issued until the code is given.
 * Screenshots go to test-artifacts/browser-identity-provider/.
 * One dialect only (`browserTestDialects`): the API and storage behind it
 * are tested on every dialect by test/oauth/oauth-oidc.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import * as oidc from 'openid-client';
import { api, createProject } from '../helpers/api.ts';
import { patchConfigOverride } from '../helpers/config.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { browserTestDialects, closeChromium, openChromium } from '../helpers/browser.ts';
import { PASSWORD, totpUser } from '../helpers/mfa-users.ts';
import { uniqueEmail } from '../helpers/smtp.ts';
import { generateTotp } from '../../core/mfa/index.ts';
import { createClient } from '../idp/idp-fixtures.ts';

const ARTIFACTS = 'test-artifacts/browser-identity-provider';

for (const dialect of browserTestDialects()) {
  describe(`identity provider: authorization code + PKCE in Chromium [${dialect}]`, () => {
    let server: TestServer;
    let front: Server;
    let origin = '';
    let browser: Browser;
    let project: Awaited<ReturnType<typeof createProject>>;
    let config: oidc.Configuration;
    let issuer = '';
    /** The app's redirect URI, answered by the test's front server (every request to it is recorded in `callbacks`). */
    let CALLBACK = '';
    let callbacks: string[] = [];
    const pageErrors: string[] = [];
    let shot = 0;

    /** A fresh browser context (no cookies); `callbacks` starts empty. */
    async function freshPage(): Promise<{ context: BrowserContext; page: Page; callbacks: string[] }> {
      const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
      const page = await context.newPage();
      callbacks = [];
      page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
      return { context, page, callbacks };
    }

    const screenshot = (page: Page, name: string) =>
      page.screenshot({ path: `${ARTIFACTS}/${dialect}-${String(++shot).padStart(2, '0')}-${name}.png`, fullPage: true });

    /** The app's side: an authorization URL with PKCE (S256), a nonce and a state. */
    async function startLogin() {
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CALLBACK,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        nonce,
        state,
      });
      return { url: url.href, verifier, nonce, state };
    }

    async function signIn(page: Page, email: string) {
      await page.waitForURL((u) => u.pathname.endsWith('/handler/sign-in'));
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }

    async function approve(page: Page, callbacks: string[]) {
      await page.getByRole('heading', { name: /Photo printer wants to access your/ }).waitFor();
      await screenshot(page, 'consent');
      const scopes = await page.locator('#consent-scopes li').allInnerTexts();
      assert.deepEqual(
        scopes.map((s) => s.split(' ')[0]),
        ['openid', 'email', 'profile'],
      );
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      assert.equal(callbacks.length, 1);
      return callbacks[0]!;
    }

    before(async () => {
      if (dialect === testDialects()[0]) rmSync(ARTIFACTS, { recursive: true, force: true });
      mkdirSync(ARTIFACTS, { recursive: true });
      front = createServer();
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      origin = `http://localhost:${(front.address() as { port: number }).port}`;
      server = await startTestServer(dialect, { baseUrl: origin });
      CALLBACK = `http://127.0.0.1:${(front.address() as { port: number }).port}/callback`;
      front.on('request', (req, res) => {
        if (!req.url?.startsWith('/callback')) return server.gatehouse.handler(req, res);
        callbacks.push(new URL(req.url, CALLBACK).href);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('back at the app');
      });
      project = await createProject(server, { sign_up_enabled: true }, { display_name: 'Camera Club' });
      assert.equal((await patchConfigOverride(server, project.admin, 'branch', { 'oidc.enabled': true })).status, 200);
      issuer = `${origin}/api/v1/projects/${project.projectId}/oidc`;
      const client = await createClient(server, project.admin, { client_name: 'Photo printer', redirect_uris: [CALLBACK] });
      config = await oidc.discovery(new URL(issuer), client.client_id, {}, oidc.ClientSecretBasic(client.client_secret!), {
        execute: [oidc.allowInsecureRequests],
      });
      browser = await openChromium();
    });

    after(async () => {
      await closeChromium(browser);
      front?.closeAllConnections();
      await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
      await server?.close();
    });

    it('signs in on the hosted page, asks consent, and the app validates the ID token and its nonce', async () => {
      const email = uniqueEmail('idp');
      const signUp = await api(server, 'POST', '/auth/password/sign-up', project.client, { email, password: PASSWORD });
      assert.equal(signUp.status, 200, signUp.text);
      const { context, page, callbacks } = await freshPage();
      const login = await startLogin();
      await page.goto(login.url);
      await signIn(page, email);
      const callback = await approve(page, callbacks);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: login.verifier,
        expectedNonce: login.nonce,
        expectedState: login.state,
      });
      const claims = tokens.claims()!;
      assert.equal(claims.sub, signUp.body.user_id);
      assert.equal(claims.email, email);
      assert.equal(claims.nonce, login.nonce);
      assert.equal(claims.iss, issuer);
      // Another nonce than the one sent is refused by the app's validation.
      const second = await startLogin();
      await page.goto(second.url);
      // Signed in and consented already: straight back to the app.
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      await assert.rejects(
        oidc.authorizationCodeGrant(config, new URL(callbacks[1]!), {
          pkceCodeVerifier: second.verifier,
          expectedNonce: oidc.randomNonce(),
          expectedState: second.state,
        }),
        (e: any) => /"nonce"/.test(String(e.cause?.message)),
      );
      await context.close();
    });

    it('stops a TOTP user at the hosted MFA page: no code until the TOTP is given, then consent and a code', async () => {
      const user = await totpUser(server, project.client);
      const { context, page, callbacks } = await freshPage();
      const login = await startLogin();
      await page.goto(login.url);
      const returnTo = new URL(page.url()).searchParams.get('after_auth_return_to');
      await signIn(page, user.email);
      await page.waitForURL((u) => u.pathname.endsWith('/mfa'));
      await page.getByRole('textbox', { name: 'Authentication code' }).waitFor();
      await screenshot(page, 'mfa-before-consent');
      // Going on without the second factor: no session, so the provider refuses and no code is issued.
      assert.ok(returnTo);
      const skipped = await page.goto(new URL(returnTo, origin).href);
      assert.equal(skipped!.status(), 400);
      assert.match(await page.content(), /login_required/);
      assert.deepEqual(callbacks, []);

      await page.goto(login.url);
      await signIn(page, user.email);
      await page.waitForURL((u) => u.pathname.endsWith('/mfa'));
      server.clock.set(Date.now());
      await page.getByRole('textbox', { name: 'Authentication code' }).fill(generateTotp(user.secret, Date.now()));
      await page.getByRole('button', { name: 'Verify' }).click();
      const callback = await approve(page, callbacks);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: login.verifier,
        expectedNonce: login.nonce,
        expectedState: login.state,
      });
      assert.equal(tokens.claims()!.sub, user.userId);
      await context.close();
    });

    it('raised no uncaught page errors', () => {
      assert.deepEqual(pageErrors, []);
    });
  });
}
