import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as oidc from 'openid-client';
import { describeWithServer } from '../helpers/suite.ts';
import type { TestServer } from '../helpers/server.ts';
import { createClient, discover, idpProject, postForm } from './idp-fixtures.ts';
import { CookieJar, postWithJar, readForm } from './browserless.ts';
import { signedInUser } from './hosted-authorization.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

type IdpProject = Awaited<ReturnType<typeof idpProject>>;

/** A public device client (a TV app) and openid-client's configuration for it. */
async function deviceClient(server: TestServer, p: IdpProject) {
  const client = await createClient(server, p.admin, {
    client_name: 'Living-room TV',
    grant_types: [DEVICE_GRANT, 'refresh_token'],
    token_endpoint_auth_method: 'none',
    redirect_uris: [],
  });
  return { client, config: await discover(p.issuer, client.client_id) };
}

/** One token request for the device code, through openid-client; its RFC error code, or 'tokens'. */
async function poll(config: oidc.Configuration, deviceCode: string): Promise<string> {
  try {
    await oidc.genericGrantRequest(config, DEVICE_GRANT, { device_code: deviceCode });
    return 'tokens';
  } catch (error: any) {
    return String(error.error ?? error.message);
  }
}

/**
 * The user's side on the hosted page: opens the verification URI, types the user code, checks it
 * on the confirmation page, signs in through the hosted sign-in (the test sets the hosted pages'
 * cookie, as the sign-in would) and answers the consent page. Answers the last page's HTML.
 */
async function enterCode(
  p: IdpProject,
  verificationUri: string,
  userCode: string,
  refreshToken: string,
  decision: 'allow' | 'deny' | 'cancel',
): Promise<string> {
  const jar = new CookieJar();
  const entry = await jar.follow(verificationUri, () => false);
  assert.equal(entry.res.status, 200);
  assert.ok(entry.url.startsWith(`${p.issuer}/device`), entry.url);
  const input = readForm(await entry.res.text(), entry.url);
  const confirmPage = await postWithJar(jar, input.action, { ...input.fields, user_code: userCode.toLowerCase() });
  assert.equal(confirmPage.status, 200);
  const html = await confirmPage.text();
  assert.match(html, /Connect Living-room TV\?/);
  assert.ok(html.includes(userCode), 'the confirmation page repeats the code');
  const confirm = readForm(html, input.action);
  if (decision === 'cancel') {
    const cancelled = await postWithJar(jar, confirm.action, { ...confirm.fields, abort: 'yes' });
    return cancelled.text();
  }
  const started = await postWithJar(jar, confirm.action, confirm.fields);
  assert.equal(started.status, 303, await started.clone().text());
  const toSignIn = await jar.follow(new URL(started.headers.get('location')!, confirm.action).href, (l) => l.includes('/handler/sign-in'));
  assert.match(toSignIn.url, new RegExp(`/projects/${p.projectId}/handler/sign-in\\?after_auth_return_to=`));
  jar.set(`gatehouse-refresh-${p.projectId}`, refreshToken);
  const returnTo = new URL(toSignIn.url).searchParams.get('after_auth_return_to')!;
  const consent = await jar.follow(new URL(returnTo, toSignIn.url).href, () => false);
  assert.equal(consent.res.status, 200);
  const page = await consent.res.text();
  assert.match(page, /Living-room TV wants to access your/);
  const form = readForm(page, consent.url);
  const target = decision === 'allow' ? form.action : form.action.replace(/\/confirm$/, '/abort');
  const answered = await postWithJar(jar, target, { decision });
  assert.equal(answered.status, 303);
  const last = await jar.follow(new URL(answered.headers.get('location')!, target).href, () => false);
  return last.res.text();
}

describeWithServer('Identity provider: device authorization grant, RFC 8628 (issue 31)', (get) => {
  it('lists the device endpoint; polls are pending, too-fast polls slow down, the code entered on the hosted page yields tokens', async () => {
    const server = get();
    const p = await idpProject(server);
    const { config } = await deviceClient(server, p);
    assert.equal(config.serverMetadata().device_authorization_endpoint, `${p.issuer}/device/auth`);
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid email offline_access' });
    assert.equal(device.verification_uri, `${server.url}/projects/${p.projectId}/handler/device`);
    assert.equal(device.verification_uri_complete, `${device.verification_uri}?user_code=${encodeURIComponent(device.user_code)}`);
    assert.equal(device.interval, 5);
    assert.match(device.user_code, /^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/);

    assert.equal(await poll(config, device.device_code), 'authorization_pending');
    assert.equal(await poll(config, device.device_code), 'slow_down');
    server.clock.advance(5_000);
    assert.equal(await poll(config, device.device_code), 'authorization_pending');

    const user = await signedInUser(server, p);
    const done = await enterCode(p, device.verification_uri, device.user_code, user.refreshToken, 'allow');
    assert.match(done, /Device connected/);

    server.clock.advance(5_000);
    // openid-client's own polling loop (it waits the interval, then gets the tokens).
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, device);
    assert.equal(tokens.claims()!.sub, user.id);
    assert.equal(tokens.claims()!.email, user.email);
    assert.ok(tokens.refresh_token);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    assert.equal(info.email, user.email);
    // A device code is good for one set of tokens.
    server.clock.advance(5_000);
    assert.equal(await poll(config, device.device_code), 'invalid_grant');
  });

  it('answers expired_token once the device code expired, and access_denied when the user refuses', async () => {
    const server = get();
    const p = await idpProject(server);
    const { config } = await deviceClient(server, p);
    const user = await signedInUser(server, p);

    const expiring = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    server.clock.advance((expiring.expires_in + 1) * 1000);
    assert.equal(await poll(config, expiring.device_code), 'expired_token');

    const denied = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    assert.match(await enterCode(p, denied.verification_uri, denied.user_code, user.refreshToken, 'deny'), /</);
    server.clock.advance(5_000);
    assert.equal(await poll(config, denied.device_code), 'access_denied');

    const cancelled = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const page = await enterCode(p, cancelled.verification_uri, cancelled.user_code, user.refreshToken, 'cancel');
    assert.match(page, /cancelled/);
    server.clock.advance(5_000);
    assert.equal(await poll(config, cancelled.device_code), 'access_denied');

    // A wrong code is refused on the page, and the device stays pending.
    const jar = new CookieJar();
    const entry = await jar.follow(cancelled.verification_uri, () => false);
    const input = readForm(await entry.res.text(), entry.url);
    const wrong = await postWithJar(jar, input.action, { ...input.fields, user_code: 'BBBB-BBBB' });
    assert.match(await wrong.text(), /not right/);
  });

  it('refuses malformed device requests with RFC error codes', async () => {
    const server = get();
    const p = await idpProject(server);
    const { client } = await deviceClient(server, p);
    const unknown = await postForm(`${p.issuer}/token`, { grant_type: DEVICE_GRANT, device_code: 'nope', client_id: client.client_id });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'invalid_grant');
    const missing = await postForm(`${p.issuer}/token`, { grant_type: DEVICE_GRANT, client_id: client.client_id });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'invalid_request');
    const noClient = await postForm(`${p.issuer}/device/auth`, { scope: 'openid' });
    assert.equal(noClient.status, 400);
    assert.equal(noClient.body.error, 'invalid_request');
  });
});
