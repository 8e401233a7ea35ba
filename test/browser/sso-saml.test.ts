/**
 * Browser test: SAML sign-in through the hosted pages in Chromium against a samlify IdP on
 * loopback. On the first dialect only (`browserTestDialects`): SAML connections, sign-in and the
 * stored identities are tested on every dialect by test/sso/saml-sign-in.test.ts and
 * test/sso/connections.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject, createProjectKeys, type Caller } from '../helpers/api.ts';
import { browserTestDialects, closeChromium, openChromium } from '../helpers/browser.ts';
import { APP_REDIRECT_URI, exchangeCode, newAppFlow } from '../helpers/oauth-flow.ts';
import { startSamlIdp, type TestSamlIdp } from '../helpers/saml-idp.ts';
import { ssoAuthorizeUrl } from '../helpers/sso-flow.ts';

describeWithServer(
  'SAML sign-in in Chromium (samlify IdP on loopback)',
  (get) => {
    let idp: TestSamlIdp;
    let browser: Browser;
    let projectId: string;
    let serverCaller: Caller;

    before(async () => {
      const server = get();
      idp = await startSamlIdp();
      browser = await openChromium();
      const project = await createProject(server);
      projectId = project.projectId;
      const keys = await createProjectKeys(server, project.admin);
      serverCaller = { projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
      const team = await api(server, 'POST', '/teams', serverCaller, { display_name: 'Corp' });
      const created = await api(server, 'POST', `/teams/${team.body.id}/sso-connections`, serverCaller, {
        type: 'saml',
        idp_metadata_url: idp.metadataUrl,
        domains: ['corp.example'],
      });
      assert.equal(created.status, 201, created.text);
    });
    after(async () => {
      await closeChromium(browser);
      await idp?.close();
    });

    it('follows the redirect to the IdP and its auto-posted response back to the app, whose code signs the user in', async () => {
      const server = get();
      idp.signInBrowserAs('zoe');
      const flow = newAppFlow();
      const page = await browser.newPage();
      try {
        // The app itself is not running: the browser's arrival at its redirect_uri is the end of the flow.
        let arrived: URL | null = null;
        await page.route(`${APP_REDIRECT_URI}**`, async (route) => {
          arrived = new URL(route.request().url());
          await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>signed in</p>' });
        });
        await page.goto(ssoAuthorizeUrl(server, projectId, flow, { email: 'zoe@corp.example' }));
        await page.waitForURL(`${APP_REDIRECT_URI}**`, { timeout: 20_000 });
        const back = arrived as URL | null;
        assert.ok(back, 'the browser reached the app');
        assert.equal(back.searchParams.get('state'), flow.state);
        const tokens = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
        assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
        const me = await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: tokens.body.access_token });
        assert.equal(me.body.primary_email, 'zoe@corp.example');
      } finally {
        await page.close();
      }
    });

    it('starts from the hosted sign-in page: the address comes first, and an address of the SSO domain goes through the IdP and back signed in', async () => {
      const server = get();
      idp.signInBrowserAs('yara');
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        const handler = `${server.url}/projects/${projectId}/handler`;
        await page.goto(`${handler}/sign-in`);
        await page.getByRole('button', { name: 'Continue' }).waitFor();
        assert.equal(await page.getByLabel('Password', { exact: true }).count(), 0, 'the address comes first');
        await page.getByLabel('Email', { exact: true }).fill('yara@corp.example');
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForURL(`${handler}/account-settings`, { timeout: 20_000 });
        await page.getByTestId('primary-email').waitFor();
        assert.equal(await page.getByTestId('primary-email').innerText(), 'yara@corp.example');
      } finally {
        await context.close();
      }
    });
  },
  {},
  browserTestDialects(),
);
