/**
 * Each host example (examples/<host>/server.mjs: node:http, Express, Fastify, Hono, Koa) runs as
 * its own process on plain `node` (the compiled package, scripts/build-lib.mjs; no TypeScript
 * loader), with Gatehouse mounted under /auth, and Chromium signs a new user up on the hosted
 * page and lands on the app's home page, which reads the user on the server (`getUser`).
 * Next.js (App Router) is test/examples/nextjs.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
// @ts-expect-error -- plain ESM build script without type declarations
import { buildLib, libUpToDate } from '../../scripts/build-lib.mjs';

const repo = join(import.meta.dirname, '../..');
const HOSTS = [['node-http', 'node:http'], ['express', 'Express'], ['fastify', 'Fastify'], ['hono', 'Hono'], ['koa', 'Koa']] as const;

/** A port free right now on localhost. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, 'localhost', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node <script>` with PORT and EXAMPLE_DATA_DIR, NODE_OPTIONS cleared (no loader from
 * outside), and resolves once it prints `listening`. Rejects with its output if it exits first.
 */
export function startExample(script: string, env: Record<string, string>, ready = /listening/): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [script], { cwd: repo, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve({ child, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it listened:\n${output}`)));
  });
}

/** Stops an example started by startExample and waits for it to exit. */
export async function stopExample(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Signs a new user up in Chromium from the app's home page at `origin`: follows "Sign up" to the
 * hosted page under /auth, submits it, and waits to be back on the home page, signed in.
 */
export async function signUpThroughHome(browser: Browser, origin: string, host: string): Promise<string> {
  const page = await browser.newPage();
  try {
    const email = `${host.replace(/\W/g, '')}-${Date.now()}@example.com`;
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { name: 'Not signed in' }).waitFor();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/auth/projects/') && url.pathname.endsWith('/handler/sign-up'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${origin}/`);
    await page.getByRole('heading', { name: `Signed in as ${email}` }).waitFor({ timeout: 15_000 });
    return email;
  } finally {
    await page.close();
  }
}

describe('host examples signed in through Chromium, Gatehouse mounted under /auth', () => {
  let browser: Browser;
  const dataRoot = mkdtempSync(join(tmpdir(), 'gatehouse-host-examples-'));

  before(async () => {
    if (!libUpToDate()) buildLib();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    rmSync(dataRoot, { recursive: true, force: true });
  });

  for (const [folder, host] of HOSTS) {
    it(`${host}: the example app reaches a signed-in home page`, async () => {
      const port = await freePort();
      const origin = `http://localhost:${port}`;
      const { child, output } = await startExample(join('examples', folder, 'server.mjs'), { PORT: String(port), EXAMPLE_DATA_DIR: join(dataRoot, folder) });
      try {
        // Outside /auth the host's own routes answer (not Gatehouse).
        const home = await fetch(`${origin}/`);
        assert.equal(home.status, 200);
        assert.match(await home.text(), new RegExp(`Served by ${host}`));
        const api = await fetch(`${origin}/auth/api/v1/projects/current`, { headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' } });
        assert.equal(api.status, 200, `${host}: the API under /auth`);
        await signUpThroughHome(browser, origin, host);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- ${folder} output ---\n${output()}`);
      } finally {
        await stopExample(child);
      }
    });
  }
});
