import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../test/helpers/suite.ts';
import { api, internal } from '../test/helpers/api.ts';
import { DASHBOARD_SCRIPT_PATH, isDashboardPath } from './dashboard.ts';
import { operations } from '../core/operations/registry.ts';
import { serverCapabilities } from '../core/operations/capabilities.ts';

const bootOf = (html: string) =>
  JSON.parse(/window\.__GATEHOUSE_DASHBOARD__=(\{.*?\});<\/script>/.exec(html)![1]!) as {
    firstRun: boolean;
    signUpOpen: boolean;
    serverPath: string;
    capabilities?: unknown;
  };
const CAPABILITIES = serverCapabilities(operations);

describeWithServer('dashboard shell', (get) => {
  it('serves the first-run shell at / on a fresh server, then the sign-in state once an owner exists', async () => {
    const server = get();
    const res = await fetch(`${server.url}/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.match(csp, /frame-ancestors 'none'/);
    const html = await res.text();
    assert.equal(html.split(`<script nonce="${nonce}">`).length - 1, 1, 'the inline script (the config) carries the nonce');
    assert.match(
      html,
      new RegExp(`<script type="module" src="[^"]+" nonce="${nonce.replace(/[+/]/g, '\\$&')}"></script>`),
      'so does the bundle',
    );
    assert.doesNotMatch(html, /<script>/);
    assert.deepEqual(bootOf(html), {
      firstRun: true,
      signUpOpen: true,
      signUpStaysOpen: false,
      serverPath: '/',
      capabilities: CAPABILITIES,
    });
    assert.match(html, /src="\.\/dashboard-assets\/dashboard\.js\?v=[0-9a-f]{16}"/);
    const signUp = await api(server, 'POST', '/auth/password/sign-up', internal.client, {
      email: 'owner@example.com',
      password: 'a long enough password',
    });
    assert.equal(signUp.status, 200, signUp.text);
    assert.deepEqual(bootOf(await (await fetch(`${server.url}/`)).text()), {
      firstRun: false,
      signUpOpen: false,
      signUpStaysOpen: false,
      serverPath: '/',
      capabilities: CAPABILITIES,
    });
  });

  it('serves the shell on client routes and leaves hosted pages, the API and unknown paths alone', async () => {
    const server = get();
    const id = '3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
    const users = await fetch(`${server.url}/projects/${id}/users`);
    assert.equal(users.status, 200);
    const usersHtml = await users.text();
    assert.equal(bootOf(usersHtml).serverPath, `/projects/${id}/users`);
    assert.match(
      usersHtml,
      /<link rel="icon" href="data:image\/svg\+xml,/,
      'the mark inline: no /favicon.ico request under a mount prefix',
    );
    const hosted = await fetch(`${server.url}/projects/${id}/handler/sign-in`);
    assert.doesNotMatch(await hosted.text(), /__GATEHOUSE_DASHBOARD__/);
    assert.equal((await fetch(`${server.url}/api/v1/nope`)).status, 404);
    const icon = await fetch(`${server.url}/favicon.ico`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
    assert.match(await icon.text(), /^<svg /);
    assert.equal((await fetch(`${server.url}/`, { method: 'POST' })).status, 404);
  });

  it('serves the bundle, immutable when the hash matches', async () => {
    const server = get();
    const html = await (await fetch(`${server.url}/`)).text();
    const src = /"(\.\/dashboard-assets\/dashboard\.js\?v=[0-9a-f]+)"/.exec(html)![1]!;
    const js = await fetch(new URL(src, `${server.url}/`));
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    assert.match(js.headers.get('cache-control') ?? '', /immutable/);
    assert.ok((await js.text()).length > 10_000);
    assert.equal((await fetch(`${server.url}${DASHBOARD_SCRIPT_PATH}`)).headers.get('cache-control'), 'no-cache');
  });
});

it('matches only dashboard routes', () => {
  for (const p of [
    '/',
    '/sign-in',
    '/team',
    '/server-settings',
    '/projects',
    '/projects/3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b',
    '/projects/3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b/users/3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  ])
    assert.equal(isDashboardPath(p), true, p);
  for (const p of [
    '/handler/sign-in',
    '/projects/3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b/handler',
    '/projects/3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b/handler/x',
    '/projects/not-a-uuid',
    '/health',
    '/api/v1',
    '/x.js',
  ])
    assert.equal(isDashboardPath(p), false, p);
});
