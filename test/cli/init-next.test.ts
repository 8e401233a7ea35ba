/**
 * `gatehouse init` in an empty Next.js (App Router) app (issue 29: "a working sign-in with no other
 * step"): init with no flags, then `next dev` (what `npm run dev` runs), then Chromium opens the
 * signed-in page init wrote (/account), is sent to sign in, signs a new user up and lands on
 * /account signed in. Gatehouse runs in the Next.js server process under /auth
 * (app/auth/[...gatehouse]/route.js on gatehouse-server/next), its database in the app's .gatehouse/.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { closeChromium, openChromium } from '../helpers/browser.ts';
import { freePort, startExample, stopExample } from '../helpers/examples.ts';
import { emptyApp, runInit } from '../helpers/init-app.ts';
// @ts-expect-error -- plain ESM build script without type declarations
import { ensureLibBuilt } from '../../scripts/build-lib.mjs';

const repo = join(import.meta.dirname, '../..');
const nextBin = createRequire(join(repo, 'package.json')).resolve('next/dist/bin/next');

describe('gatehouse init in an empty Next.js app', () => {
  let browser: Browser;
  let app: string;
  let output: { stdout: string; stderr: string };

  before(async () => {
    await ensureLibBuilt();
    app = emptyApp('nextjs-app');
    output = runInit(app);
    browser = await openChromium();
  });
  after(async () => {
    await closeChromium(browser);
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('writes the project to .env.local with NEXT_PUBLIC_ names and the route handler, handler redirects and signed-in page', () => {
    const env = readFileSync(join(app, '.env.local'), 'utf8');
    assert.match(env, /^NEXT_PUBLIC_STACK_PROJECT_ID=[0-9a-f-]{36}$/m);
    assert.match(env, /^NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY=pck_/m);
    assert.match(env, /^STACK_SECRET_SERVER_KEY=ssk_/m);
    for (const file of ['app/auth/[...gatehouse]/route.js', 'app/handler/[...page]/route.js', 'app/account/page.jsx', 'lib/gatehouse.js'])
      assert.match(output.stderr, new RegExp(file.replace(/[[\].]/g, '\\$&')), file);
    assert.match(readFileSync(join(app, 'app/page.jsx'), 'utf8'), /Get started/, 'the existing page is kept');
    assert.match(output.stdout, /npm run dev/);
  });

  it('`next dev` then sends a visitor of /account to sign in; a new user signs up and lands on /account, signed in', async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const { child, output: log } = await startExample(
      nextBin,
      { NEXT_TELEMETRY_DISABLED: '1', PORT: String(port) },
      /Ready in/,
      ['dev', '-p', String(port)],
      app,
    );
    const page = await browser.newPage();
    try {
      const email = `next-${Date.now()}@example.com`;
      await page.goto(`${origin}/account`, { timeout: 120_000 });
      await page.waitForURL((url) => url.pathname.endsWith('/handler/sign-in'), { timeout: 120_000 });
      assert.equal(new URL(page.url()).searchParams.get('after_auth_return_to'), '/account');
      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/auth/projects/') && url.pathname.endsWith('/handler/sign-up'));
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL(`${origin}/account`, { timeout: 60_000 });
      await page.getByRole('heading', { name: `Signed in as ${email}` }).waitFor({ timeout: 60_000 });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- next dev output ---\n${log()}`);
    } finally {
      await page.close();
      await stopExample(child);
    }
  });
});
