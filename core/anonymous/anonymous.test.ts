import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decodeJwt, createRemoteJWKSet, jwtVerify } from 'jose';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys } from '../../test/helpers/api.ts';

const allowAnonymous = { 'x-stack-allow-anonymous-user': 'true' };

describeWithServer('anonymous', (get) => {
  it('creates an anonymous, restricted user with a personal team and tokens for the :anon audience', async () => {
    const server = get();
    const { client, projectId } = await createProject(server, { create_team_on_sign_up: true });
    // The official SDK sends no body and no content-type.
    const res = await fetch(`${server.url}/api/v1/auth/anonymous/sign-up`, { method: 'POST', headers: { 'x-stack-project-id': projectId, 'x-stack-access-type': 'client', 'x-stack-admin-access-token': client.adminAccessToken! } });
    assert.equal(res.status, 200);
    const body = await res.json() as { access_token: string; refresh_token: string; user_id: string };
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'refresh_token', 'user_id']);
    const claims = decodeJwt(body.access_token);
    assert.equal(claims.aud, `${projectId}:anon`);
    assert.equal(claims.iss, `${server.url}/api/v1/projects-anonymous-users/${projectId}`);
    assert.equal(claims.is_anonymous, true);
    assert.equal(claims.is_restricted, true);
    assert.deepEqual(claims.restricted_reason, { type: 'anonymous' });

    const jwks = createRemoteJWKSet(new URL(`${server.url}/api/v1/projects/${projectId}/.well-known/jwks.json?include_anonymous=true`));
    const verified = await jwtVerify(body.access_token, jwks, { currentDate: new Date(server.clock.now()) });
    assert.equal(verified.payload.sub, body.user_id);

    const me = await api(server, 'GET', '/users/me', { ...client, accessToken: body.access_token, headers: allowAnonymous });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, body.user_id);
    assert.equal(me.body.is_anonymous, true);
    assert.equal(me.body.is_restricted, true);
    assert.deepEqual(me.body.restricted_reason, { type: 'anonymous' });
    assert.equal(me.body.primary_email, null);
    assert.equal(me.body.selected_team.display_name, 'Personal Team');

    const refreshed = await api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken: body.refresh_token });
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal(decodeJwt(refreshed.body.access_token).aud, `${projectId}:anon`);
  });

  it('refuses an anonymous token without x-stack-allow-anonymous-user with ANONYMOUS_AUTHENTICATION_NOT_ALLOWED', async () => {
    const server = get();
    const { client } = await createProject(server);
    const anon = await api(server, 'POST', '/auth/anonymous/sign-up', client);
    const res = await api(server, 'GET', '/users/me', { ...client, accessToken: anon.body.access_token });
    assertKnownError(res, 'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED', 401);
    const restrictedOnly = await api(server, 'GET', '/users/me', { ...client, accessToken: anon.body.access_token, headers: { 'x-stack-allow-restricted-user': 'true' } });
    assertKnownError(restrictedOnly, 'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED', 401);
  });

  it('allows anonymous sign-up when sign-up is disabled', async () => {
    const server = get();
    const { client } = await createProject(server, { sign_up_enabled: false });
    const res = await api(server, 'POST', '/auth/anonymous/sign-up', client);
    assert.equal(res.status, 200, res.text);
  });

  it('works for client, server and admin keys, and rejects a body, a bad key and no access type', async () => {
    const server = get();
    const { admin, projectId } = await createProject(server);
    const keys = await createProjectKeys(server, admin);
    for (const caller of [
      { projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey },
      { projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey },
      { projectId, accessType: 'admin' as const, superSecretAdminKey: keys.superSecretAdminKey },
    ]) {
      const res = await api(server, 'POST', '/auth/anonymous/sign-up', caller);
      assert.equal(res.status, 200, res.text);
    }
    assertKnownError(await api(server, 'POST', '/auth/anonymous/sign-up', { projectId, accessType: 'server', secretServerKey: 'ssk_wrong' }), 'INVALID_SECRET_SERVER_KEY', 401);
    assertKnownError(await api(server, 'POST', '/auth/anonymous/sign-up', { projectId }), 'ACCESS_TYPE_REQUIRED', 400);
    assertKnownError(await api(server, 'POST', '/auth/anonymous/sign-up', { projectId, accessType: 'client' }, { display_name: 'x' }), 'SCHEMA_ERROR', 400);
  });
});
