/**
 * Browser test (passkeys): real Chromium (playwright-core, /usr/bin/chromium, headless)
 * with a virtual WebAuthn authenticator (CDP `WebAuthn.addVirtualAuthenticator`: CTAP2, internal,
 * resident keys, user verification) against a freshly started server, on the first dialect in
 * TEST_DIALECTS. A user of a passkey-enabled project signs up on its hosted pages, adds a passkey
 * in account settings, signs out, and signs in again with "Sign in with a passkey" on the hosted
 * sign-in page; then removes the passkey. Screenshots go to test-artifacts/browser-passkeys/.
 * One dialect only (`browserTestDialects`): the API and storage behind it
 * are tested on every dialect by core/passkeys/passkeys.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type Browser, type CDPSession, type Page } from 'playwright-core';
import { api, createProject } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { browserTestDialects, closeChromium, openChromium } from '../helpers/browser.ts';

const ARTIFACTS = 'test-artifacts/browser-passkeys';

for (const dialect of browserTestDialects()) {
  describe(`passkeys in Chromium [${dialect}]`, () => {
    let server: TestServer;
    let front: Server;
    let origin = '';
    let browser: Browser;
    let page: Page;
    let cdp: CDPSession;
    let authenticatorId = '';
    let project: Awaited<ReturnType<typeof createProject>>;
    let handler = '';
    const email = `passkey-${dialect}-${Date.now()}@example.com`;
    const password = 'correct-horse-battery';
    const pageErrors: string[] = [];
    let shot = 0;
    const screenshot = async (name: string) => {
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-${String(++shot).padStart(2, '0')}-${name}.png`, fullPage: true });
    };

    before(async () => {
      if (dialect === testDialects()[0]) rmSync(ARTIFACTS, { recursive: true, force: true });
      mkdirSync(ARTIFACTS, { recursive: true });
      // WebAuthn needs a domain (not an IP) as relying-party id: serve Gatehouse on localhost.
      front = createServer();
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      origin = `http://localhost:${(front.address() as { port: number }).port}`;
      server = await startTestServer(dialect, { baseUrl: origin });
      front.on('request', (req, res) => server.gatehouse.handler(req, res));
      project = await createProject(
        server,
        { passkey_enabled: true, sign_up_enabled: true, allow_localhost: false },
        { display_name: 'Passkey Club' },
      );
      handler = `${origin}/projects/${project.projectId}/handler`;
      browser = await openChromium();
      page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
      cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const added = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      authenticatorId = added.authenticatorId;
    });

    after(async () => {
      await closeChromium(browser);
      front?.closeAllConnections();
      await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
      await server?.close();
    });

    it('signs up on the hosted pages and adds a passkey in account settings', async () => {
      await page.goto(`${handler}/sign-up`);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL(`${handler}/account-settings`);
      await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
      await page.getByText('You have no passkeys.', { exact: false }).waitFor();
      await screenshot('account-settings-no-passkey');

      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByText('Passkey added.', { exact: false }).waitFor();
      await page.getByRole('list', { name: 'Passkeys' }).getByText('never used', { exact: false }).waitFor();
      await screenshot('account-settings-passkey-added');

      const stored = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      assert.equal(stored.credentials.length, 1, 'the authenticator holds one credential');
      assert.equal(stored.credentials[0]!.rpId, 'localhost');
      assert.equal(stored.credentials[0]!.isResidentCredential, true);
      const users = await api(server, 'GET', `/users?query=${encodeURIComponent(email)}`, project.server);
      const user = users.body.items.find((u: { primary_email: string }) => u.primary_email === email);
      assert.equal(user.passkey_auth_enabled, true);
      const keys = await api(server, 'GET', `/passkeys?user_id=${user.id}`, project.server);
      assert.equal(keys.body.items.length, 1);
      assert.equal(
        Buffer.from(stored.credentials[0]!.credentialId, 'base64').toString('base64url'),
        keys.body.items[0].credential_id,
        "the server stored the authenticator's credential",
      );
      assert.equal(Buffer.from(stored.credentials[0]!.userHandle!, 'base64').toString(), user.id, 'the user handle is the user id');
    });

    it('signs out, then signs in with the passkey on the hosted sign-in page', async () => {
      await page.goto(`${handler}/sign-out`);
      await page.waitForURL(`${handler}/sign-in`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
      await screenshot('sign-in-with-passkey-button');
      const before = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount;

      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL(`${handler}/account-settings`);
      await page.getByTestId('primary-email').waitFor();
      assert.equal(await page.getByTestId('primary-email').innerText(), email);
      await page.getByRole('list', { name: 'Passkeys' }).getByText('last used', { exact: false }).waitFor();
      await screenshot('signed-in-with-passkey');
      const afterCount = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount;
      assert.ok(afterCount > before, `the authenticator signed (sign count ${before} → ${afterCount})`);
    });

    it('removes the passkey in account settings, after which passkey sign-in is refused', async () => {
      await page.getByRole('list', { name: 'Passkeys' }).getByRole('button', { name: 'Remove' }).click();
      await page.getByText('You have no passkeys.', { exact: false }).waitFor();
      await page.goto(`${handler}/sign-out`);
      await page.waitForURL(`${handler}/sign-in`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByText('Passkey not found').waitFor();
      await screenshot('passkey-removed-sign-in-refused');
      assert.equal(new URL(page.url()).pathname, `/projects/${project.projectId}/handler/sign-in`);
    });

    it('raised no uncaught errors in any page', () => {
      assert.deepEqual(pageErrors, []);
    });
  });
}
