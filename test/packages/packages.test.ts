/**
 * A new app installs the packed SDK and React packages: scripts/check-packages.mjs
 * builds and `npm pack`s them, installs the tarballs into a scratch React app, checks one React and
 * no server dependency in its node_modules, type-checks it with `tsc --strict` and bundles it with
 * plain esbuild. Then the bundle runs in Chromium on its own origin (a loopback port) against a
 * running Gatehouse (another port) and signs a user in with the embedded SignIn component.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { api, createProject } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium } from '../helpers/browser.ts';
// @ts-expect-error -- plain ESM scripts without type declarations
import { checkPackages } from '../../scripts/check-packages.mjs';
// @ts-expect-error -- plain ESM build script without type declarations
import { exampleHtml } from '../../examples/react-app/build.mjs';

const execFileAsync = promisify(execFile);

interface CheckResult {
  app: string;
  outfile: string;
  packages: string[];
  tarballs: Record<string, { files: string[] }>;
}

describe(`packed packages in a scratch React app [${testDialects()[0]}]`, () => {
  let result: CheckResult;
  let server: TestServer;
  let front: Server;
  let browser: Browser;

  before(async () => {
    result = await checkPackages();
    server = await startTestServer(testDialects()[0]!);
  });

  after(async () => {
    await closeChromium(browser);
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await server?.close();
  });

  it('ships JavaScript, declarations and an exports map; React is a peer dependency', () => {
    const files = [...result.tarballs.sdk!.files, ...result.tarballs.react!.files];
    assert.ok(files.includes('dist/index.js') && files.includes('dist/index.browser.js'), files.join(', '));
    assert.ok(files.includes('types/ui/react.d.ts') && files.includes('types/sdk/index.browser.d.ts'));
    const react = JSON.parse(readFileSync(`${result.app}/node_modules/gatehouse-react/package.json`, 'utf8'));
    assert.deepEqual(Object.keys(react.peerDependencies).sort(), ['react', 'react-dom']);
    assert.equal(react.dependencies.react, undefined);
    assert.ok(react.exports['.'].types && react.exports['.'].default);
    const sdk = JSON.parse(readFileSync(`${result.app}/node_modules/gatehouse-sdk/package.json`, 'utf8'));
    assert.deepEqual(Object.keys(sdk.dependencies), ['cookie', 'jose']);
    // checkPackages already threw if a second React or a server dependency had been installed.
    assert.equal(result.packages.filter((p) => p === 'react').length, 1);
    for (const forbidden of ['argon2', 'better-sqlite3', 'pg', 'koa', 'kysely']) assert.ok(!result.packages.includes(forbidden), forbidden);
  });

  it('the Node entry works without a loader: import gatehouse-sdk and call the server', async () => {
    const code = `import { ServerApp, GatehouseKnownError } from 'gatehouse-sdk';
      const app = new ServerApp({ projectId: 'internal', secretServerKey: 'wrong', baseUrl: process.argv[1], tokenStore: null });
      try { await app.listUsers(); console.log('no error'); } catch (e) { console.log(e instanceof GatehouseKnownError ? e.code : String(e)); }`;
    // Asynchronously: the server answering it runs in this process.
    const r = await execFileAsync(process.execPath, ['--input-type=module', '-e', code, server.url], {
      cwd: result.app,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.match(r.stdout.trim(), /^[A-Z_]+$/, r.stdout);
  });

  it('signs a user in from another origin with the bundle', async () => {
    const project = await createProject(server);
    const email = `packages-${Date.now()}@example.com`;
    const password = 'correct-horse-battery';
    const created = await api(server, 'POST', '/users', project.server, {
      primary_email: email,
      primary_email_auth_enabled: true,
      password,
    });
    assert.equal(created.status, 201, created.text);
    const bundle = readFileSync(result.outfile, 'utf8');
    front = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/app/example.js') {
        res.setHeader('content-type', 'text/javascript');
        res.end(bundle);
        return;
      }
      res.setHeader('content-type', 'text/html');
      res.end(exampleHtml({ projectId: project.projectId, baseUrl: server.url }));
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const appOrigin = `http://localhost:${(front.address() as { port: number }).port}`;
    browser = await openChromium();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${appOrigin}/app`);
    await page.getByText('You are signed out.').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('home-email').waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('home-email').textContent(), email);
    assert.equal(new URL(page.url()).origin, appOrigin);
    assert.deepEqual(
      errors.filter((e) => /Invalid hook call|more than one copy of React/i.test(e)),
      [],
    );
  });
});
