import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api } from '../helpers/api.ts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { followCallback } from '../helpers/oauth-flow.ts';
import { SDKS, errorCodeOf, sdkApps } from './helpers.ts';

/**
 * The official SDK's own OAuth code (`getOAuthUrl` and `callOAuthCallback` of its client
 * interface, the functions `signInWithOAuth` and the oauth-callback handler call; the
 * browser-only wrappers around them need `window`) against Gatehouse and a real OpenID provider.
 */
for (const sdk of SDKS) {
  describeWithServer(`OAuth with ${sdk.name}`, (get) => {
    let idp: TestOidcProvider;
    let apps: Awaited<ReturnType<typeof sdkApps>>;
    before(async () => {
      const server = get();
      idp = await startOidcProvider([`${server.url}/api/v1/auth/oauth/callback/acme`]);
      apps = await sdkApps(server, sdk.module, {
        oauth_providers: [
          { id: 'acme', type: 'standard', client_id: idp.clientId, client_secret: idp.clientSecret, issuer_url: idp.issuer },
        ],
      });
    });
    after(async () => {
      await idp?.close();
    });

    it("accepts getOAuthUrl's URL and completes callOAuthCallback's token exchange, twice for one identity, and raises the SDK's MFA error for a TOTP user", async () => {
      const server = get();
      const userIds: string[] = [];
      const run = async () => {
        const app = apps.clientApp();
        const iface = app._interface;
        const session = await app._getSession();
        const codeVerifier = randomBytes(32).toString('base64url');
        const state = randomBytes(16).toString('base64url');
        const redirectUrl = 'http://localhost:3000/handler/oauth-callback';
        const url: string = await iface.getOAuthUrl({
          provider: 'acme',
          redirectUrl,
          errorRedirectUrl: 'http://localhost:3000/handler/error',
          afterCallbackRedirectUrl: 'http://localhost:3000/after',
          codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
          state,
          type: 'authenticate',
          session,
        });
        assert.ok(url.startsWith(`${server.url}/api/v1/auth/oauth/authorize/acme?`), url);
        const start = await fetch(url, { redirect: 'manual' });
        assert.equal(start.status, 307, await start.text());
        const callback = await signInAtProvider(
          new CookieJar(),
          start.headers.get('location')!,
          'sdk-user',
          `${server.url}/api/v1/auth/oauth/callback/`,
        );
        const back = await followCallback(callback);
        assert.equal(back.searchParams.get('state'), state);
        return iface.callOAuthCallback({ oauthParams: back.searchParams, redirectUri: redirectUrl, codeVerifier, state });
      };
      for (const round of [1, 2]) {
        const result = await run();
        assert.equal(result.newUser, round === 1);
        assert.equal(result.afterCallbackRedirectUrl, 'http://localhost:3000/after');
        assert.ok(result.refreshToken);
        const me = await api(server, 'GET', '/users/me', {
          projectId: apps.project.projectId,
          accessType: 'client',
          accessToken: result.accessToken,
        });
        assert.equal(me.body.primary_email, 'sdk-user@example.test');
        userIds.push(me.body.id);
      }
      assert.equal(userIds[0], userIds[1]);

      // With TOTP on, the SDK's callOAuthCallback turns the token endpoint's error into its MFA error.
      const server2 = { projectId: apps.project.projectId, accessType: 'server' as const, secretServerKey: apps.keys.secretServerKey };
      const totp = await api(server, 'PATCH', `/users/${userIds[0]}`, server2, {
        totp_secret_base64: Buffer.from('12345678901234567890').toString('base64'),
      });
      assert.equal(totp.status, 200, totp.text);
      const mfa = await run().then(
        () => null,
        (error: unknown) => error,
      );
      assert.equal(errorCodeOf(mfa), 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    });
  });
}
