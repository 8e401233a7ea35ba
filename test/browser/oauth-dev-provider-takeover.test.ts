/**
 * Browser test: an attacker in real Chromium walks the hosted OAuth flow of
 * a project whose GitHub provider is `type: "shared"` (the built-in development provider, where
 * anyone may type any email) and `oauth_account_merge_strategy: link_method`, against a verified
 * victim. On a production-mode server (the default GATEHOUSE_ENVIRONMENT) the flow stops at
 * authorize with OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION and nobody is signed in; on a
 * development server the provider still works for trying OAuth offline, but the typed victim
 * address lands in a separate, unverified account. Screenshots in test-artifacts/oauth-takeover/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { api, createProject } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium } from '../helpers/browser.ts';

const ARTIFACTS = 'test-artifacts/oauth-takeover';
const VICTIM = 'victim@example.test';

async function victimProject(server: TestServer) {
  const project = await createProject(server, {
    oauth_providers: [{ id: 'github', type: 'shared' }],
    oauth_account_merge_strategy: 'link_method',
  });
  const victim = await api(server, 'POST', '/users', project.server, {
    primary_email: VICTIM,
    primary_email_verified: true,
    primary_email_auth_enabled: true,
    password: 'velvet tractor 93',
  });
  assert.equal(victim.status, 201, victim.text);
  return { project, victimId: victim.body.id as string };
}

describe(`the development OAuth provider cannot take over an account, in Chromium [${testDialects()[0]}]`, () => {
  let browser: Browser;
  before(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await openChromium();
  });
  after(async () => {
    await closeChromium(browser);
  });

  async function clickGitHub(server: TestServer, page: Page, projectId: string) {
    await page.goto(`${server.url}/projects/${projectId}/handler/sign-in`);
    const button = page.getByRole('button', { name: 'Sign in with GitHub' });
    await button.waitFor();
    await button.click();
  }

  it('on a production-mode server: the hosted flow stops at authorize with an actionable error, and no session exists', async () => {
    const server = await startTestServer(testDialects()[0]!, { environment: 'production' });
    const page = await browser.newPage();
    try {
      const { project, victimId } = await victimProject(server);
      await clickGitHub(server, page, project.projectId);
      await page.waitForURL((url) => url.pathname.startsWith('/api/v1/auth/oauth/authorize/github'));
      const shown = await page.locator('body').innerText();
      await page.screenshot({ path: `${ARTIFACTS}/01-production-refused.png`, fullPage: true });
      assert.match(shown, /OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION/);
      assert.match(shown, /client ID and client secret/);

      // Straight to the development provider's page with a hand-made request: refused as well.
      const query = new URLSearchParams({
        client_id: `${project.projectId}:github`,
        redirect_uri: `${server.url}/api/v1/auth/oauth/callback/github`,
        response_type: 'code',
        state: 'attacker',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
      });
      await page.goto(`${server.url}/api/v1/auth/oauth/dev-provider/authorize?${query}`);
      assert.match(await page.locator('body').innerText(), /OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION/);
      assert.equal(await page.getByRole('heading', { name: 'Development sign-in' }).count(), 0);

      // Nobody is signed in: account settings send the browser to sign in.
      await page.goto(`${server.url}/projects/${project.projectId}/handler/account-settings`);
      await page.waitForURL((url) => url.pathname.endsWith('/handler/sign-in'));
      const users = await api(server, 'GET', '/users', project.server);
      assert.deepEqual(
        users.body.items.map((u: { id: string }) => u.id),
        [victimId],
        'no account was created',
      );
      assert.deepEqual(users.body.items[0].oauth_providers, [], 'nothing was linked to the victim');
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('on a development server: trying OAuth offline still works, and the typed victim address gets its own unverified account', async () => {
    const server = await startTestServer(testDialects()[0]!, { environment: 'development' });
    const page = await browser.newPage();
    try {
      const { project, victimId } = await victimProject(server);
      await clickGitHub(server, page, project.projectId);
      await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
      await page.getByLabel('Or any email').fill(VICTIM);
      await page.screenshot({ path: `${ARTIFACTS}/02-development-typed-victim.png`, fullPage: true });
      await page.getByRole('button', { name: 'Continue with this email' }).click();
      await page
        .waitForURL((url) => !url.pathname.includes('/oauth/') && !url.pathname.endsWith('/oauth-callback'), { timeout: 15_000 })
        .catch(async (error) => {
          throw new Error(`stuck at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 500)}`, { cause: error });
        });
      await page.goto(`${server.url}/projects/${project.projectId}/handler/account-settings`);
      await page.getByRole('button', { name: 'Disconnect GitHub' }).waitFor();
      await page.screenshot({ path: `${ARTIFACTS}/03-development-own-account.png`, fullPage: true });

      const users = (await api(server, 'GET', '/users', project.server)).body.items as {
        id: string;
        primary_email: string;
        primary_email_verified: boolean;
        oauth_providers: { id: string }[];
      }[];
      const victim = users.find((u) => u.id === victimId)!;
      assert.deepEqual(victim.oauth_providers, [], 'nothing was linked to the victim');
      const other = users.filter((u) => u.id !== victimId);
      assert.equal(other.length, 1, 'the development identity signed up a separate account');
      assert.equal(other[0]!.primary_email_verified, false, 'a typed address is never verified');
      assert.deepEqual(
        other[0]!.oauth_providers.map((p) => p.id),
        ['github'],
      );
    } finally {
      await page.close();
      await server.close();
    }
  });
});
