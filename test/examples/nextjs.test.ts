/**
 * The Next.js App Router example (examples/nextjs-app-router): one production build (`next build`,
 * Turbopack; about 45 s on this 2-core machine, kept in the example's .next/ and redone only when
 * what it reads changed: scripts/build-once.mjs), then `next start`; Gatehouse runs in the
 * Next.js server process under /auth through `createNextAuth` (route handlers on
 * `gatehouse.fetch`, a server-component `getUser()`), and `/protected` is guarded by the proxy
 * (`protectRoutes`). Chromium signs a new user up to the signed-in home page, then opens the
 * protected page.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { closeChromium, openChromium } from '../helpers/browser.ts';
import { freePort, signUpThroughHome, startExample, stopExample } from '../helpers/examples.ts';
// @ts-expect-error -- plain ESM build script without type declarations
import { ensureLibBuilt } from '../../scripts/build-lib.mjs';
// @ts-expect-error -- plain ESM script without type declarations
import { hashInputs } from '../../scripts/build-once.mjs';

const repo = join(import.meta.dirname, '../..');
const app = join(repo, 'examples/nextjs-app-router');
const nextBin = createRequire(join(repo, 'package.json')).resolve('next/dist/bin/next');
const env = { NEXT_TELEMETRY_DISABLED: '1', NODE_OPTIONS: '' };
/** Written into .next/ after a build: the hash of the inputs it was built from. */
const stamp = join(app, '.next', 'gatehouse-inputs');

/**
 * Links the package into the example, then `next build` unless .next/ holds a build of the same inputs: the example and the
 * host setup it imports, the compiled package it resolves (dist/lib, through link.mjs), the
 * lock file (Next.js and React) and Node's version.
 */
function buildExample() {
  const inputs = hashInputs(
    repo,
    ['examples/nextjs-app-router', 'examples/hosts', 'dist/lib', 'package.json', 'package-lock.json'],
    [process.version],
  ) as string;
  let built = '';
  try {
    built = readFileSync(stamp, 'utf8');
  } catch {}
  const steps = built === inputs ? [['link.mjs']] : [['link.mjs'], [nextBin, 'build']];
  rmSync(stamp, { force: true });
  for (const args of steps) {
    const result = spawnSync(process.execPath, args, { cwd: app, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 600_000 });
    assert.equal(result.status, 0, `${args.join(' ')}\n${result.stdout}\n${result.stderr}`);
  }
  writeFileSync(stamp, inputs);
}

describe('Next.js App Router example signed in through Chromium, Gatehouse under /auth', () => {
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-nextjs-example-'));

  before(async () => {
    await ensureLibBuilt();
    buildExample();
    browser = await openChromium();
  });
  after(async () => {
    await closeChromium(browser);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the protected page redirects a signed-out visitor; sign-up reaches the signed-in home page, then the protected page', async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const { child, output } = await startExample(
      nextBin,
      { ...env, PORT: String(port), EXAMPLE_DATA_DIR: dataDir },
      /Ready in/,
      ['start', '-p', String(port)],
      app,
    );
    try {
      const guarded = await fetch(`${origin}/protected`, { redirect: 'manual' });
      assert.equal(guarded.status, 307);
      const location = new URL(guarded.headers.get('location')!, origin);
      assert.equal(`${location.pathname}${location.search}`, '/sign-in?after_auth_return_to=%2Fprotected');
      const api = await fetch(`${origin}/auth/api/v1/projects/current`, {
        headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
      });
      assert.equal(api.status, 200, 'the API under /auth through the route handler');
      const email = await signUpThroughHome(browser, origin, 'Next.js');
      const page = await browser.newPage(); // a context of its own: no cookies yet
      try {
        // Signed out again: sign in again on the hosted page via /sign-in.
        await page.goto(`${origin}/protected`);
        await page.waitForURL((url) => url.pathname.endsWith('/handler/sign-in'));
        await page.getByLabel('Email', { exact: true }).fill(email);
        await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('heading', { name: `Protected page for ${email}` }).waitFor({ timeout: 15_000 });
      } finally {
        await page.close();
      }
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- next start output ---\n${output()}`);
    } finally {
      await stopExample(child);
    }
  });
});
