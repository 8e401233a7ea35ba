import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as oidc from 'openid-client';
import { api } from '../helpers/api.ts';
import { describeWithServer } from '../helpers/suite.ts';
import { createClient, discover, idpProject, postForm } from './idp-fixtures.ts';
import { authorize, REDIRECT } from './authorize-flow.ts';
import { signedInUser } from './hosted-authorization.ts';

describeWithServer('Identity provider: authorization code + PKCE, refresh tokens (issue 31)', (get) => {
  it('signs in through the hosted pages, asks consent, and issues a validated ID token with the standard claims', async () => {
    const server = get();
    const p = await idpProject(server);
    const client = await createClient(server, p.admin, { client_name: 'Third-party app', redirect_uris: [REDIRECT] });
    const config = await discover(p.issuer, client.client_id, client.client_secret);
    const user = await signedInUser(server, p);
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const callback = await authorize(
      server,
      p,
      config,
      user,
      {
        scope: 'openid email profile offline_access',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        prompt: 'consent',
      },
      { expectConsent: true },
    );
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
    });
    const claims = tokens.claims()!;
    assert.equal(claims.sub, user.id);
    assert.equal(claims.iss, p.issuer);
    assert.equal(claims.email, user.email);
    assert.equal(claims.email_verified, true);
    assert.equal(claims.name, 'Ada Lovelace');
    assert.equal(typeof claims.updated_at, 'number');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    assert.equal(info.email, user.email);
    assert.equal(info.name, 'Ada Lovelace');
    assert.ok(tokens.refresh_token);
  });

  it('rotates refresh tokens and revokes the grant when a used one comes back; a signed-out session or deleted user ends refreshing', async () => {
    const server = get();
    const p = await idpProject(server);
    const client = await createClient(server, p.admin, { client_name: 'First-party app', redirect_uris: [REDIRECT], skip_consent: true });
    const config = await discover(p.issuer, client.client_id, client.client_secret);
    const login = async (user: { refreshToken: string }) => {
      const verifier = oidc.randomPKCECodeVerifier();
      const callback = await authorize(
        server,
        p,
        config,
        user,
        // OpenID Connect Core §11: offline_access needs prompt=consent (a skip_consent client is not shown the page).
        {
          scope: 'openid offline_access',
          prompt: 'consent',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        },
        { expectConsent: false },
      );
      return oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier });
    };
    const user = await signedInUser(server, p);
    const first = await login(user);
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    assert.notEqual(second.refresh_token, first.refresh_token);
    // Reuse of the rotated-out token: refused, and the whole grant (the new token too) is revoked.
    await assert.rejects(oidc.refreshTokenGrant(config, first.refresh_token!), (e: any) => e.error === 'invalid_grant');
    await assert.rejects(oidc.refreshTokenGrant(config, second.refresh_token!), (e: any) => e.error === 'invalid_grant');

    // Two requests rotating one refresh token at once: one is answered, the other is a reuse that revokes the grant.
    const raced = await login(user);
    const results = await Promise.allSettled([
      oidc.refreshTokenGrant(config, raced.refresh_token!),
      oidc.refreshTokenGrant(config, raced.refresh_token!),
    ]);
    const answered = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    assert.equal(answered.length, 1, 'exactly one of the two rotations is answered');
    assert.ok(results.some((r) => r.status === 'rejected' && (r.reason as any).error === 'invalid_grant'));
    await assert.rejects(oidc.refreshTokenGrant(config, answered[0]!.refresh_token!), (e: any) => e.error === 'invalid_grant');

    // Signing out of Gatehouse (the session that approved) stops the grant's refresh tokens at once.
    const fresh = await login(user);
    const signOut = await api(server, 'DELETE', '/auth/sessions/current', { ...p.client, refreshToken: user.refreshToken } as any);
    assert.ok(signOut.status < 300, signOut.text);
    await assert.rejects(oidc.refreshTokenGrant(config, fresh.refresh_token!), (e: any) => e.error === 'invalid_grant');

    // A session link stored before links named their session in `uid` (the session is then read in a second query):
    // refreshing works while the session lives, and stops once it is signed out.
    const older = await signedInUser(server, p);
    const olderTokens = await login(older);
    await server.gatehouse.core.runtime.db
      .updateTable('oauth_provider_payloads')
      .set({ uid: null })
      .where('project_id', '=', p.projectId)
      .where('model', '=', 'GatehouseSessionLink')
      .where('account_id', '=', older.id)
      .execute();
    const olderNext = await oidc.refreshTokenGrant(config, olderTokens.refresh_token!);
    const olderSignOut = await api(server, 'DELETE', '/auth/sessions/current', { ...p.client, refreshToken: older.refreshToken } as any);
    assert.ok(olderSignOut.status < 300, olderSignOut.text);
    await assert.rejects(oidc.refreshTokenGrant(config, olderNext.refresh_token!), (e: any) => e.error === 'invalid_grant');

    // A deleted user's refresh token stops working.
    const other = await signedInUser(server, p);
    const tokens = await login(other);
    assert.equal((await api(server, 'DELETE', `/users/${other.id}`, p.server)).status, 200);
    await assert.rejects(oidc.refreshTokenGrant(config, tokens.refresh_token!), (e: any) => e.error === 'invalid_grant');
  });

  it('refuses a code without PKCE, a plain challenge, and a wrong verifier', async () => {
    const server = get();
    const p = await idpProject(server);
    const client = await createClient(server, p.admin, { client_name: 'App', redirect_uris: [REDIRECT], skip_consent: true });
    const config = await discover(p.issuer, client.client_id, client.client_secret);
    const base = { client_id: client.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid' };
    for (const extra of [{}, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }] as Record<string, string>[]) {
      const res = await fetch(`${p.issuer}/auth?${new URLSearchParams({ ...base, ...extra })}`, { redirect: 'manual' });
      const location = new URL(res.headers.get('location') ?? 'http://x/');
      assert.equal(location.searchParams.get('error'), 'invalid_request', JSON.stringify(extra));
    }
    const user = await signedInUser(server, p);
    const verifier = oidc.randomPKCECodeVerifier();
    const callback = await authorize(
      server,
      p,
      config,
      user,
      { scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' },
      { expectConsent: false },
    );
    const code = new URL(callback).searchParams.get('code')!;
    const res = await postForm(
      `${p.issuer}/token`,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: oidc.randomPKCECodeVerifier() },
      { id: client.client_id, secret: client.client_secret! },
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
  });
});
