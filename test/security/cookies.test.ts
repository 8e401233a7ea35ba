import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cookieTokenStore, hostedCookieOptions, HOSTED_REFRESH_COOKIE_MAX_AGE_S } from '../../sdk/tokens.ts';
import { manualEnvironment } from '../../sdk/env.ts';

// Issue 12 finding 9: the hosted pages' refresh cookie lived 365 days, was not Secure, and one
// access cookie name was shared by every project and the dashboard.

function fakeDocument() {
  const jar = new Map<string, string>();
  const written: string[] = [];
  return {
    written,
    jar,
    get cookie() { return [...jar].map(([k, v]) => `${k}=${v}`).join('; '); },
    set cookie(line: string) {
      written.push(line);
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      if (/max-age=0(;|$)/i.test(line)) jar.delete(pair!.slice(0, i)); else jar.set(pair!.slice(0, i), pair!.slice(i + 1));
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
    assert.deepEqual(a.get(), { accessToken: 'at-a', refreshToken: 'rt-a' }, "the dashboard's sign-in does not overwrite the project's access cookie");
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
