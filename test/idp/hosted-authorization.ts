import assert from 'node:assert/strict';
import { api, type Caller } from '../helpers/api.ts';
import type { TestServer } from '../helpers/server.ts';
import { CookieJar } from './browserless.ts';

/** A user of the project signed in through the API, as the hosted sign-in would leave them: its refresh token in the hosted pages' cookie. */
export async function signedInUser(server: TestServer, p: { server: Caller }, fields: Record<string, unknown> = {}) {
  const user = await api(server, 'POST', '/users', p.server, {
    primary_email: `u${Math.random().toString(36).slice(2)}@example.test`,
    primary_email_verified: true,
    display_name: 'Ada Lovelace',
    ...fields,
  });
  assert.equal(user.status, 201, user.text);
  const session = await api(server, 'POST', '/auth/sessions', p.server, {
    user_id: user.body.id,
    expires_in_millis: 3_600_000,
    is_impersonation: false,
  });
  assert.equal(session.status, 200, session.text);
  return {
    id: user.body.id as string,
    email: user.body.primary_email as string,
    refreshToken: session.body.refresh_token as string,
    accessToken: session.body.access_token as string,
  };
}

/**
 * Runs an authorization request URL through the hosted sign-in (the user's session cookie) and,
 * unless skipped, the consent page (allowing), with a cookie jar instead of a browser; answers
 * the callback URL (starting with `redirectUri`) that carries the code.
 */
export async function approveInHostedPages(
  projectId: string,
  authorizationUrl: string,
  user: { refreshToken: string },
  redirectUri: string,
  options: { expectConsent: boolean },
): Promise<string> {
  const jar = new CookieJar();
  const toSignIn = await jar.follow(authorizationUrl, (l) => l.includes('/handler/sign-in'));
  assert.match(toSignIn.url, new RegExp(`/projects/${projectId}/handler/sign-in\\?after_auth_return_to=`));
  const returnTo = new URL(toSignIn.url).searchParams.get('after_auth_return_to')!;
  assert.ok(returnTo.startsWith('/'), 'a relative return URL, which the hosted pages follow');
  jar.set(`gatehouse-refresh-${projectId}`, user.refreshToken);
  const back = await jar.follow(new URL(returnTo, toSignIn.url).href, (l) => l.startsWith(redirectUri));
  if (!options.expectConsent) {
    assert.ok(back.url.startsWith(redirectUri), back.url);
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
  const done = await jar.follow(new URL(confirmed.headers.get('location')!, action).href, (l) => l.startsWith(redirectUri));
  assert.ok(done.url.startsWith(redirectUri), done.url);
  return done.url;
}
