/**
 * Each host example (examples/<host>/server.mjs: node:http, Express, Fastify, Hono, Koa) runs as
 * its own process on plain `node` (the compiled package, scripts/build-lib.mjs; no TypeScript
 * loader), with Gatehouse mounted under /auth, and Chromium signs a new user up on the hosted
 * page and lands on the app's home page, which reads the user on the server (`getUser`).
 * Next.js (App Router) is test/examples/nextjs.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { closeChromium, openChromium } from '../helpers/browser.ts';
import { freePort, signUpThroughHome, startExample, stopExample } from '../helpers/examples.ts';
// @ts-expect-error -- plain ESM build script without type declarations
import { ensureLibBuilt } from '../../scripts/build-lib.mjs';

const HOSTS = [
  ['node-http', 'node:http'],
  ['express', 'Express'],
  ['fastify', 'Fastify'],
  ['hono', 'Hono'],
  ['koa', 'Koa'],
] as const;

describe('host examples signed in through Chromium, Gatehouse mounted under /auth', () => {
  let browser: Browser;
  const dataRoot = mkdtempSync(join(tmpdir(), 'gatehouse-host-examples-'));

  before(async () => {
    await ensureLibBuilt();
    browser = await openChromium();
  });
  after(async () => {
    await closeChromium(browser);
    rmSync(dataRoot, { recursive: true, force: true });
  });

  for (const [folder, host] of HOSTS) {
    it(`${host}: the example app reaches a signed-in home page`, async () => {
      const port = await freePort();
      const origin = `http://localhost:${port}`;
      const { child, output } = await startExample(join('examples', folder, 'server.mjs'), {
        PORT: String(port),
        EXAMPLE_DATA_DIR: join(dataRoot, folder),
      });
      try {
        // Outside /auth the host's own routes answer (not Gatehouse).
        const home = await fetch(`${origin}/`);
        assert.equal(home.status, 200);
        assert.match(await home.text(), new RegExp(`Served by ${host}`));
        const api = await fetch(`${origin}/auth/api/v1/projects/current`, {
          headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
        });
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
