import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import type { TestServer } from '../helpers/server.ts';
import type { idpProject } from './idp-fixtures.ts';
import { CookieJar } from './browserless.ts';

/** The redirect URI of the test clients (nothing listens there: the flow stops at the redirect). */
export const REDIRECT = 'http://127.0.0.1:9/callback';

/**
 * Runs the authorization request through sign-in and (unless skipped) consent with a cookie jar;
 * answers the callback URL with the code.
 */
export async function authorize(
  server: TestServer,
  p: Awaited<ReturnType<typeof idpProject>>,
  config: oidc.Configuration,
  user: { refreshToken: string },
  params: Record<string, string>,
  options: { expectConsent: boolean },
) {
  const jar = new CookieJar();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, ...params }).href;
  const toSignIn = await jar.follow(url, (l) => l.includes('/handler/sign-in'));
  assert.match(toSignIn.url, new RegExp(`/projects/${p.projectId}/handler/sign-in\\?after_auth_return_to=`));
  const returnTo = new URL(toSignIn.url).searchParams.get('after_auth_return_to')!;
  assert.ok(returnTo.startsWith('/'), 'a relative return URL, which the hosted pages follow');
  jar.set(`gatehouse-refresh-${p.projectId}`, user.refreshToken);
  const back = await jar.follow(new URL(returnTo, toSignIn.url).href, (l) => l.startsWith(REDIRECT));
  if (!options.expectConsent) {
    assert.ok(back.url.startsWith(REDIRECT), back.url);
    return back.url;
  }
  assert.equal(back.res.status, 200);
  const page = await back.res.text();
  assert.match(page, /wants to access your/);
  const action = /<form method="post" action="([^"]+\/confirm)"/.exec(page)![1]!.replaceAll('&#38;', '&');
  const confirmed = await jar.fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=allow',
  });
  assert.equal(confirmed.status, 303);
  const done = await jar.follow(new URL(confirmed.headers.get('location')!, action).href, (l) => l.startsWith(REDIRECT));
  assert.ok(done.url.startsWith(REDIRECT), done.url);
  return done.url;
}
