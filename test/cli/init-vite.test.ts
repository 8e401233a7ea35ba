/**
 * `gatehouse init` in an empty Vite React app (issue 29: "a working sign-in with no other step"):
 * init with no flags, then `vite` (what `npm run dev` runs), then Chromium signs a new user up from
 * the app's page and sees the app, signed in. Gatehouse runs inside Vite's dev server under /auth
 * (gatehouse-server/vite), its database in the app's .gatehouse/.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { closeChromium, openChromium } from '../helpers/browser.ts';
import { freePort, startExample, stopExample } from '../helpers/examples.ts';
import { emptyApp, runInit } from '../helpers/init-app.ts';
// @ts-expect-error -- plain ESM build script without type declarations
import { ensureLibBuilt } from '../../scripts/build-lib.mjs';

const repo = join(import.meta.dirname, '../..');
const viteBin = join(repo, 'node_modules/vite/bin/vite.js');

describe('gatehouse init in an empty Vite React app', () => {
  let browser: Browser;
  let app: string;
  let output: { stdout: string; stderr: string };
  let port: number;

  before(async () => {
    await ensureLibBuilt();
    app = emptyApp('vite-react');
    // The dev server's port (Vite's 5173 on a developer's machine; a free one here), which the
    // project trusts: the hosted sign-up page returns there.
    port = await freePort();
    output = runInit(app, ['--port', String(port)]);
    browser = await openChromium();
  });
  after(async () => {
    await closeChromium(browser);
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('writes the project to .env.local with VITE_ names, the plugin, the root element and .gitignore', () => {
    const env = readFileSync(join(app, '.env.local'), 'utf8');
    assert.match(env, /^VITE_STACK_PROJECT_ID=[0-9a-f-]{36}$/m);
    assert.match(env, /^VITE_STACK_PUBLISHABLE_CLIENT_KEY=pck_/m);
    assert.match(env, /^STACK_SECRET_SERVER_KEY=ssk_/m);
    assert.doesNotMatch(env, /VITE_STACK_SECRET/);
    assert.match(readFileSync(join(app, 'vite.config.js'), 'utf8'), /plugins: \[gatehouse\(\), react\(\)\]/);
    assert.match(readFileSync(join(app, 'src/main.jsx'), 'utf8'), /<GatehouseRoot><App \/><\/GatehouseRoot>/);
    assert.match(readFileSync(join(app, '.gitignore'), 'utf8'), /^\.gatehouse$/m);
    assert.match(output.stdout, /npm run dev/);
  });

  it('`vite` then serves a sign-in; a new user signs up and sees the app, signed in', async () => {
    const origin = `http://localhost:${port}`;
    const { child, output: log } = await startExample(viteBin, {}, /ready in/, ['--port', String(port), '--strictPort'], app);
    const page = await browser.newPage();
    try {
      const email = `vite-${Date.now()}@example.com`;
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: 'Sign up' }).click({ timeout: 60_000 });
      await page.waitForURL((url) => url.pathname.startsWith('/auth/projects/') && url.pathname.endsWith('/handler/sign-up'));
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL(`${origin}/`);
      await page.getByText(`Signed in as ${email}`).waitFor({ timeout: 30_000 });
      await page.getByRole('heading', { name: 'Vite + React' }).waitFor();
      // Signed out in a new context, the same user signs in with the embedded form.
      const context = await browser.newContext();
      const again = await context.newPage();
      await again.goto(`${origin}/`);
      await again.getByLabel('Email', { exact: true }).fill(email);
      await again.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
      await again.getByRole('button', { name: 'Sign in', exact: true }).click();
      await again.getByText(`Signed in as ${email}`).waitFor({ timeout: 30_000 });
      await context.close();
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- vite output ---\n${log()}`);
    } finally {
      await page.close();
      await stopExample(child);
    }
  });
});
