import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import * as oidc from 'openid-client';
import { api } from '../helpers/api.ts';
import { describeWithServer } from '../helpers/suite.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { createClient, discover, idpProject } from './idp-fixtures.ts';
import { authorize, REDIRECT } from './authorize-flow.ts';
import { signedInUser } from './hosted-authorization.ts';

describeWithServer('Identity provider: authorized apps and their webhook events (issue 31)', (get) => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver.close();
  });

  it('lists the apps a user authorized, revokes one (its refresh tokens stop at once), and sends oauth_grant.created / .revoked', async () => {
    const server = get();
    const p = await idpProject(server);
    const endpoint = await api(server, 'POST', '/internal/webhook-endpoints', p.admin, {
      url: receiver.url,
      description: 'idp',
      event_types: ['oauth_grant.created', 'oauth_grant.revoked'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    const client = await createClient(server, p.admin, {
      client_name: 'Photo printer',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      logo_uri: 'https://printer.example.com/logo.png',
    });
    const config = await discover(p.issuer, client.client_id, client.client_secret);
    const user = await signedInUser(server, p);
    const other = await signedInUser(server, p);
    const login = async () => {
      const verifier = oidc.randomPKCECodeVerifier();
      const callback = await authorize(
        server,
        p,
        config,
        user,
        {
          scope: 'openid email offline_access',
          prompt: 'consent',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        },
        { expectConsent: true },
      );
      return oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier });
    };
    const before = Date.now();
    const tokens = await login();
    const [created] = await receiver.waitFor(1);
    assert.equal(created!.payload.type, 'oauth_grant.created');
    assert.equal(created!.payload.data.client_id, client.client_id);
    assert.equal(created!.payload.data.user_id, user.id);
    assert.deepEqual([...created!.payload.data.scopes].sort(), ['email', 'offline_access', 'openid']);

    const me = { ...p.client, accessToken: user.accessToken };
    const listed = await api(server, 'GET', '/oauth-provider/authorized-apps', me);
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.items.length, 1);
    const [app] = listed.body.items;
    assert.equal(app.client_id, client.client_id);
    assert.equal(app.client_name, 'Photo printer');
    assert.equal(app.logo_uri, 'https://printer.example.com/logo.png');
    assert.deepEqual([...app.scopes].sort(), ['email', 'offline_access', 'openid']);
    assert.ok(app.authorized_at >= before - 2000 && app.authorized_at <= Date.now() + 1000, String(app.authorized_at));
    // Another user sees none of it, and cannot revoke it.
    const otherCaller = { ...p.client, accessToken: other.accessToken };
    assert.deepEqual((await api(server, 'GET', '/oauth-provider/authorized-apps', otherCaller)).body.items, []);
    assert.equal((await api(server, 'DELETE', `/oauth-provider/authorized-apps/${client.client_id}`, otherCaller)).status, 404);
    assert.equal((await api(server, 'GET', `/oauth-provider/authorized-apps?user_id=${user.id}`, otherCaller)).status >= 400, true);
    // The server sees the user's list.
    assert.equal((await api(server, 'GET', `/oauth-provider/authorized-apps?user_id=${user.id}`, p.server)).body.items.length, 1);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    const revoked = await api(server, 'DELETE', `/oauth-provider/authorized-apps/${client.client_id}`, me);
    assert.equal(revoked.status, 200, revoked.text);
    await assert.rejects(oidc.refreshTokenGrant(config, refreshed.refresh_token!), (e: any) => e.error === 'invalid_grant');
    assert.equal((await oidc.tokenIntrospection(config, refreshed.access_token)).active, false);
    assert.deepEqual((await api(server, 'GET', '/oauth-provider/authorized-apps', me)).body.items, []);
    const events = await receiver.waitFor(2);
    assert.equal(events[1]!.payload.type, 'oauth_grant.revoked');
    assert.deepEqual(events[1]!.payload.data, { grant_id: created!.payload.data.grant_id, client_id: client.client_id, user_id: user.id });

    // Authorizing again works (a new grant), and the client's own revocation of the refresh token ends that grant too.
    const again = await login();
    assert.equal((await receiver.waitFor(3))[2]!.payload.type, 'oauth_grant.created');
    await oidc.tokenRevocation(config, again.refresh_token!);
    const last = (await receiver.waitFor(4))[3]!;
    assert.equal(last.payload.type, 'oauth_grant.revoked');
    assert.equal(last.payload.data.user_id, user.id);
    assert.deepEqual((await api(server, 'GET', '/oauth-provider/authorized-apps', me)).body.items, []);
  });
});
