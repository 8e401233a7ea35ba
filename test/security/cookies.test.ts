import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cookieTokenStore, hostedCookieOptions, tokensFromCookies } from '../../sdk/tokens.ts';
import { HOSTED_REFRESH_COOKIE_MAX_AGE_S } from '../../core/protocol/cookie-bridge.ts';
import { manualEnvironment } from '../../sdk/env.ts';
import { INTERNAL_KEYS, startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';

// The hosted pages' refresh cookie lived 365 days, was not Secure, was
// readable by script, and one access cookie name was shared by every project and the dashboard.
// The browser side of the HttpOnly cookie is test/browser/cookie-bridge.test.ts.

function fakeDocument() {
  const jar = new Map<string, string>();
  const written: string[] = [];
  return {
    written,
    jar,
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(line: string) {
      written.push(line);
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      if (/max-age=0(;|$)/i.test(line)) jar.delete(pair!.slice(0, i));
      else jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    },
  };
}

describe("cookies of Gatehouse's own pages (issue 12 finding 9)", () => {
  it('names the access cookie per project (the dashboard has its own) and keeps the refresh cookie 30 days, Secure on https', () => {
    const doc = fakeDocument();
    const a = cookieTokenStore('project-a', manualEnvironment(), doc, { ...hostedCookieOptions('project-a'), secure: true });
    const dashboard = cookieTokenStore('internal', manualEnvironment(), doc, { ...hostedCookieOptions('internal'), secure: true });
    a.set({ accessToken: 'at-a', refreshToken: 'rt-a' });
    dashboard.set({ accessToken: 'at-d', refreshToken: 'rt-d' });
    assert.deepEqual(
      a.get(),
      { accessToken: 'at-a', refreshToken: 'rt-a' },
      "the dashboard's sign-in does not overwrite the project's access cookie",
    );
    assert.deepEqual(dashboard.get(), { accessToken: 'at-d', refreshToken: 'rt-d' });
    assert.ok(doc.jar.has('stack-access-project-a') && doc.jar.has('stack-access-internal') && !doc.jar.has('stack-access'));
    const refreshLine = doc.written.find((l) => l.startsWith('stack-refresh-project-a='))!;
    assert.match(refreshLine, new RegExp(`max-age=${HOSTED_REFRESH_COOKIE_MAX_AGE_S}(;|$)`, 'i'));
    assert.equal(HOSTED_REFRESH_COOKIE_MAX_AGE_S, 30 * 24 * 3600);
    assert.match(refreshLine, /; Secure/);
    assert.match(refreshLine, /SameSite=Lax/i);
  });

  it('keeps the official SDK names and lifetimes by default, for apps that share cookies with it', () => {
    const doc = fakeDocument();
    cookieTokenStore('p', manualEnvironment(), doc, { secure: false }).set({ accessToken: 'at', refreshToken: 'rt' });
    assert.ok(doc.jar.has('stack-access') && doc.jar.has('stack-refresh-p'));
    assert.match(doc.written.find((l) => l.startsWith('stack-refresh-p='))!, /max-age=31536000/i);
  });
});

describe(`the same-origin cookie bridge (issue 12 finding 9) [${testDialects()[0]}]`, () => {
  let server: TestServer;
  const email = `bridge-${Date.now()}@example.com`;
  const password = 'correct-horse-battery';
  const client = {
    'content-type': 'application/json',
    'x-stack-project-id': 'internal',
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': INTERNAL_KEYS.publishableClientKey,
  };
  const signIn = (headers: Record<string, string>) =>
    fetch(`${server.url}/api/v1/auth/password/sign-in`, {
      method: 'POST',
      headers: { ...client, ...headers },
      body: JSON.stringify({ email, password }),
    });

  before(async () => {
    server = await startTestServer(testDialects()[0]!, { baseUrl: 'https://auth.example.com' });
    const res = await fetch(`${server.url}/api/v1/auth/password/sign-up`, {
      method: 'POST',
      headers: client,
      body: JSON.stringify({ email, password }),
    });
    assert.equal(res.status, 200, await res.text());
  });
  after(() => server?.close());

  it('answers a bridge request with a placeholder and an HttpOnly, Secure, 30-day cookie for the project', async () => {
    const res = await signIn({ 'x-gatehouse-cookie-bridge': '1', origin: 'https://auth.example.com', 'sec-fetch-site': 'same-origin' });
    const body = (await res.json()) as { refresh_token: string; access_token: string };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.match(body.refresh_token, /^gatehouse-httponly-cookie\.[0-9a-f]{16}$/);
    assert.equal(typeof body.access_token, 'string');
    const setCookie = res.headers.get('set-cookie') ?? '';
    assert.match(setCookie, /^gatehouse-refresh-internal=[^;]+; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    // A server-side read of the page's cookies (mount mode) finds the real token, the HttpOnly cookie first.
    const token = /^gatehouse-refresh-internal=([^;]+)/.exec(setCookie)![1]!;
    const cookie = `stack-refresh-internal=${encodeURIComponent(body.refresh_token)}; stack-access-internal=${encodeURIComponent(JSON.stringify([body.refresh_token, body.access_token]))}; gatehouse-refresh-internal=${token}`;
    assert.deepEqual(tokensFromCookies({ cookie }, 'internal'), {
      refreshToken: decodeURIComponent(token),
      accessToken: body.access_token,
    });
    // The placeholder works in x-stack-refresh-token (sign-out), and sign-out clears the cookie.
    const out = await fetch(`${server.url}/api/v1/auth/sessions/current`, {
      method: 'DELETE',
      headers: {
        ...client,
        'x-gatehouse-cookie-bridge': '1',
        'x-stack-refresh-token': body.refresh_token,
        cookie: `gatehouse-refresh-internal=${token}`,
      },
      body: '{}',
    });
    assert.equal(out.status, 200, await out.text());
    assert.match(out.headers.get('set-cookie') ?? '', /^gatehouse-refresh-internal=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const again = await fetch(`${server.url}/api/v1/auth/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: decodeURIComponent(token),
        client_id: 'internal',
        client_secret: INTERNAL_KEYS.publishableClientKey,
      }).toString(),
    });
    assert.notEqual(again.status, 200, 'the session behind the placeholder was signed out');
  });

  it('leaves apps alone: no bridge header, or a foreign origin, gets the token in the body and no cookie', async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { 'x-gatehouse-cookie-bridge': '1', origin: 'https://attacker.example' },
      { 'x-gatehouse-cookie-bridge': '1', 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of variants) {
      const res = await signIn(headers);
      const body = (await res.json()) as { refresh_token: string };
      assert.equal(res.status, 200);
      assert.doesNotMatch(body.refresh_token, /gatehouse-httponly-cookie/);
      assert.equal(res.headers.get('set-cookie'), null);
    }
  });
});
