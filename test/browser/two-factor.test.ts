/**
 * Browser test (MFA and CLI login): real Chromium (playwright-core, /usr/bin/chromium,
 * headless) against a freshly started server, on the first dialect in TEST_DIALECTS. A user of a
 * project signs up on its hosted pages, turns on two-factor authentication in account settings
 * from the QR code's key, keeps a recovery code, signs out, signs in with the password and is
 * stopped at the hosted MFA page until the TOTP is given; signs in once more with a recovery code;
 * and authorizes a CLI login on /handler/cli-auth-confirm. Screenshots go to
 * test-artifacts/browser-two-factor/.
 * One dialect only (`browserTestDialects`): the API and storage behind it
 * are tested on every dialect by core/mfa/mfa.test.ts and core/mfa/recovery-codes.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { Secret } from 'otpauth';
import { api, createProject } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { generateTotp } from '../../core/mfa/index.ts';
import { browserTestDialects, closeChromium, openChromium } from '../helpers/browser.ts';

const ARTIFACTS = 'test-artifacts/browser-two-factor';

for (const dialect of browserTestDialects()) {
  describe(`two-factor sign-in and CLI login in Chromium [${dialect}]`, () => {
    let server: TestServer;
    let front: Server;
    let origin = '';
    let browser: Browser;
    let page: Page;
    let project: Awaited<ReturnType<typeof createProject>>;
    let handler = '';
    let secretBase64 = '';
    let recoveryCode = '';
    const email = `mfa-${dialect}-${Date.now()}@example.com`;
    const password = 'correct-horse-battery';
    const pageErrors: string[] = [];
    let shot = 0;
    const screenshot = async (name: string) => {
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-${String(++shot).padStart(2, '0')}-${name}.png`, fullPage: true });
    };
    /**
     * The TOTP `stepOffset` steps from now. The server's injected clock is set to real time first
     * (the browser checks enrolment with Date.now); an offset of 5 steps makes a wrong code.
     */
    const totpNow = (stepOffset = 0) => {
      server.clock.set(Date.now());
      return generateTotp(secretBase64, Date.now() + stepOffset * 30_000);
    };

    before(async () => {
      if (dialect === testDialects()[0]) rmSync(ARTIFACTS, { recursive: true, force: true });
      mkdirSync(ARTIFACTS, { recursive: true });
      front = createServer();
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      origin = `http://localhost:${(front.address() as { port: number }).port}`;
      server = await startTestServer(dialect, { baseUrl: origin });
      front.on('request', (req, res) => server.gatehouse.handler(req, res));
      project = await createProject(server, { sign_up_enabled: true }, { display_name: 'Second Factor Inc' });
      handler = `${origin}/projects/${project.projectId}/handler`;
      browser = await openChromium();
      page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) pageErrors.push(`${page.url()}: ${m.text()}`);
      });
      // Nothing may leave for an outside QR service: every request must go to our own origin.
      page.on('request', (r) => {
        if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) pageErrors.push(`request to ${r.url()}`);
      });
    });

    after(async () => {
      await closeChromium(browser);
      front?.closeAllConnections();
      await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
      await server?.close();
    });

    it("signs up and turns on two-factor authentication from the QR code's key in account settings", async () => {
      server.clock.set(Date.now());
      await page.goto(`${handler}/sign-up`);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL(`${handler}/account-settings`);
      await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      await screenshot('enrol-qr-code');
      const typed = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
      secretBase64 = Buffer.from(Secret.fromBase32(typed).bytes).toString('base64');

      await page.getByRole('textbox', { name: 'Authentication code' }).fill(totpNow(5));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByText('The code is not correct.', { exact: false }).waitFor();
      await page.getByRole('textbox', { name: 'Authentication code' }).fill(totpNow());
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByText('Save these recovery codes', { exact: false }).waitFor();
      const codes = await page.getByRole('list', { name: 'Recovery codes' }).locator('li').allInnerTexts();
      assert.equal(codes.length, 10);
      recoveryCode = codes[0]!;
      await screenshot('recovery-codes');

      const users = await api(server, 'GET', `/users?query=${encodeURIComponent(email)}`, project.server);
      assert.equal(users.body.items[0].requires_totp_mfa, true, 'the server has the secret');
    });

    it('stops a password sign-in at the hosted MFA page until the TOTP is given', async () => {
      await page.goto(`${handler}/sign-out`);
      await page.waitForURL(`${handler}/sign-in`);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${handler}/mfa`);
      await page.getByRole('textbox', { name: 'Authentication code' }).waitFor();
      await screenshot('mfa-page');
      const cookies = (await page.context().cookies()).filter((c) => /refresh/i.test(c.name) && c.value !== '');
      assert.deepEqual(
        cookies.map((c) => c.name),
        [],
        'no refresh token before the second factor',
      );

      await page.getByRole('textbox', { name: 'Authentication code' }).fill(totpNow(5));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('The code is not correct.', { exact: false }).waitFor();
      await page.getByRole('textbox', { name: 'Authentication code' }).fill(totpNow());
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL((url) => !url.pathname.endsWith('/mfa'));
      await page.goto(`${handler}/account-settings`);
      await page.getByTestId('primary-email').waitFor();
      assert.equal(await page.getByTestId('primary-email').innerText(), email);
      await screenshot('signed-in-after-totp');
    });

    it('signs in with a recovery code once', async () => {
      await page.goto(`${handler}/sign-out`);
      await page.waitForURL(`${handler}/sign-in`);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${handler}/mfa`);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCode);
      await screenshot('mfa-recovery-code');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL((url) => !url.pathname.endsWith('/mfa'));
      await page.goto(`${handler}/account-settings`);
      assert.equal(await page.getByTestId('primary-email').innerText(), email);
      // The code is spent: a second sign-in cannot use it.
      const again = await api(server, 'POST', '/auth/password/sign-in', project.client, { email, password });
      assert.equal(again.body.code, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
      const reuse = await api(server, 'POST', '/auth/mfa/sign-in', project.client, {
        type: 'recovery_code',
        recovery_code: recoveryCode,
        code: again.body.details.attempt_code,
      });
      assert.equal(reuse.body.code, 'INVALID_TOTP_CODE');
    });

    it("authorizes a CLI login on /handler/cli-auth-confirm, after which the CLI's poll gets a refresh token", async () => {
      const started = await api(server, 'POST', '/auth/cli', project.client, {});
      assert.equal(started.status, 200, started.text);
      assert.deepEqual((await api(server, 'POST', '/auth/cli/poll', project.client, { polling_code: started.body.polling_code })).body, {
        status: 'waiting',
      });
      await page.goto(`${handler}/cli-auth-confirm?login_code=${started.body.login_code}`);
      await page.getByText(email).waitFor();
      await screenshot('cli-confirm');
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByText('The command line is now signed in.').waitFor();
      const polled = await api(server, 'POST', '/auth/cli/poll', project.client, { polling_code: started.body.polling_code });
      assert.equal(polled.status, 201, polled.text);
      const refreshed = await api(server, 'POST', '/auth/sessions/current/refresh', {
        ...project.client,
        refreshToken: polled.body.refresh_token,
      });
      const me = await api(server, 'GET', '/users/me', { ...project.client, accessToken: refreshed.body.access_token });
      assert.equal(me.body.primary_email, email);
    });

    it('raised no uncaught errors and made no request outside its own origin', () => {
      assert.deepEqual(pageErrors, []);
    });
  });
}
