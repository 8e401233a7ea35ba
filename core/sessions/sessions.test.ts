import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decodeJwt } from 'jose';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import type { TestServer } from '../../test/helpers/server.ts';

async function userWithSession(server: TestServer, p: Awaited<ReturnType<typeof createProject>>, extra: Record<string, unknown> = {}) {
  const user = await api(server, 'POST', '/users', p.server, { primary_email: `u${Math.random().toString(36).slice(2)}@example.com`, display_name: 'Ada' });
  const session = await api(server, 'POST', '/auth/sessions', p.server, { user_id: user.body.id, ...extra });
  assert.equal(session.status, 200, session.text);
  return { userId: user.body.id as string, accessToken: session.body.access_token as string, refreshToken: session.body.refresh_token as string };
}

describeWithServer('sessions and tokens', (get) => {
  it('creates a session whose access token carries exactly the wire-protocol claims', async () => {
    const server = get();
    const p = await createProject(server);
    const s = await userWithSession(server, p);
    assert.match(s.refreshToken, /^[0-9a-z]{45}$/);
    const claims = decodeJwt(s.accessToken);
    assert.deepEqual(Object.keys(claims).sort(), [
      'aud', 'branch_id', 'email', 'email_verified', 'exp', 'iat', 'is_anonymous', 'is_restricted', 'iss', 'name', 'project_id',
      'refresh_token_id', 'requires_totp_mfa', 'restricted_reason', 'role', 'selected_team_id', 'signed_up_at', 'sub',
    ]);
    assert.equal(claims.sub, s.userId);
    assert.equal(claims.aud, p.projectId);
    assert.equal(claims.iss, `${server.url}/api/v1/projects/${p.projectId}`);
    assert.equal(claims.role, 'authenticated');
    assert.equal(claims.name, 'Ada');
    assert.equal(claims.branch_id, 'main');
    assert.equal(claims.is_restricted, false);
    assert.equal(claims.restricted_reason, null);
    assert.equal((claims.exp as number) - (claims.iat as number), 600);
  });

  it('answers USER_ID_DOES_NOT_EXIST for an unknown user and refuses clients', async () => {
    const server = get();
    const p = await createProject(server);
    assertKnownError(await api(server, 'POST', '/auth/sessions', p.server, { user_id: '7b0f3a52-2a1c-4d59-8e0e-1b8c2a5d6f70' }), 'USER_ID_DOES_NOT_EXIST', 400);
    assertKnownError(await api(server, 'POST', '/auth/sessions', p.client, { user_id: '7b0f3a52-2a1c-4d59-8e0e-1b8c2a5d6f70' }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'POST', '/auth/sessions', p.server, { user_id: 'nope', expires_in_millis: 400 * 86400000 }), 'SCHEMA_ERROR', 400);
  });

  it('verifies tokens against the JWKS: 2 keys, 4 with restricted, 6 with anonymous', async () => {
    const server = get();
    const p = await createProject(server);
    const res = await fetch(`${server.url}/api/v1/projects/${p.projectId}/.well-known/jwks.json`);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    const jwks = await res.json() as { keys: Array<{ kid: string; alg: string; crv: string; kty: string }> };
    assert.equal(jwks.keys.length, 2);
    assert.deepEqual([jwks.keys[0]!.kty, jwks.keys[0]!.alg, jwks.keys[0]!.crv], ['EC', 'ES256', 'P-256']);
    const r4 = await (await fetch(`${server.url}/api/v1/projects/${p.projectId}/.well-known/jwks.json?include_restricted=true`)).json() as { keys: unknown[] };
    assert.equal(r4.keys.length, 4);
    const r6 = await (await fetch(`${server.url}/api/v1/projects/${p.projectId}/.well-known/jwks.json?include_anonymous=true`)).json() as { keys: unknown[] };
    assert.equal(r6.keys.length, 6);
    const missing = await fetch(`${server.url}/api/v1/projects/7b0f3a52-2a1c-4d59-8e0e-1b8c2a5d6f70/.well-known/jwks.json`);
    assert.equal(missing.status, 404);

    const { createLocalJWKSet, jwtVerify } = await import('jose');
    const s = await userWithSession(server, p);
    const verified = await jwtVerify(s.accessToken, createLocalJWKSet(jwks as never), { audience: p.projectId, currentDate: new Date(server.clock.now()) });
    assert.equal(verified.payload.sub, s.userId);
  });

  it('refreshes with the refresh-token header without rotating it, and updates last-active times', async () => {
    const server = get();
    const p = await createProject(server);
    const s = await userWithSession(server, p);
    server.clock.advance(5000);
    const res = await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: s.refreshToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['access_token']);
    assert.equal(decodeJwt(res.body.access_token).refresh_token_id, decodeJwt(s.accessToken).refresh_token_id);
    const user = await api(server, 'GET', `/users/me`, { ...p.server, accessToken: res.body.access_token });
    assert.equal(user.body.last_active_at_millis, server.clock.now());
    const again = await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: s.refreshToken });
    assert.equal(again.status, 200);
    assertKnownError(await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: 'wrong' }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    assertKnownError(await api(server, 'POST', '/auth/sessions/current/refresh', p.client), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
  });

  it('expires refresh tokens at their lifetime and access tokens after ten minutes', async () => {
    const server = get();
    const p = await createProject(server);
    const s = await userWithSession(server, p, { expires_in_millis: 60_000 });
    server.clock.advance(61_000);
    assertKnownError(await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: s.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    const t = await userWithSession(server, p);
    server.clock.advance(601_000);
    const expired = await api(server, 'GET', '/users/me', { ...p.client, accessToken: t.accessToken });
    assertKnownError(expired, 'ACCESS_TOKEN_EXPIRED', 401);
    assert.equal(typeof expired.body.details.expired_at_millis, 'number');
  });

  it('serves the OAuth refresh_token grant the official SDK uses, answering known errors', async () => {
    const server = get();
    const p = await createProject(server);
    const s = await userWithSession(server, p);
    const form = (fields: Record<string, string>) => fetch(`${server.url}/api/v1/auth/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
      body: new URLSearchParams(fields).toString(),
    });
    const ok = await form({ grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: p.projectId, client_secret: '__stack_public_client__' });
    assert.equal(ok.status, 200);
    const body = await ok.json() as Record<string, unknown>;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(decodeJwt(body.access_token as string).sub, s.userId);
    const bad = await form({ grant_type: 'refresh_token', refresh_token: 'nope', client_id: p.projectId, client_secret: '__stack_public_client__' });
    assert.equal(bad.status, 401);
    assert.equal(bad.headers.get('x-stack-known-error'), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    const wrongClient = await form({ grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: p.projectId, client_secret: 'pck_wrong' });
    assert.equal(wrongClient.headers.get('x-stack-known-error'), 'INVALID_OAUTH_CLIENT_ID_OR_SECRET');
    const otherProject = await createProject(server);
    const crossProject = await form({ grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: otherProject.projectId });
    assert.equal(crossProject.headers.get('x-stack-known-error'), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  });

  it('lists sessions newest first, marks the current one, and shows impersonation only to admins', async () => {
    const server = get();
    const p = await createProject(server);
    const s = await userWithSession(server, p);
    server.clock.advance(1000);
    await api(server, 'POST', '/auth/sessions', p.server, { user_id: s.userId, is_impersonation: true });
    const asClient = await api(server, 'GET', '/auth/sessions?user_id=me', { ...p.client, accessToken: s.accessToken });
    assert.equal(asClient.status, 200, asClient.text);
    assert.equal(asClient.body.items.length, 1);
    assert.equal(asClient.body.items[0].is_current_session, true);
    const asAdmin = await api(server, 'GET', `/auth/sessions?user_id=${s.userId}`, p.admin);
    assert.equal(asAdmin.body.items.length, 2);
    assert.equal(asAdmin.body.items[0].is_impersonation, true);
    assert.equal(asAdmin.body.is_paginated, false);
    assertKnownError(await api(server, 'GET', '/auth/sessions?user_id=me', p.client), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const other = await userWithSession(server, p);
    const foreign = await api(server, 'GET', `/auth/sessions?user_id=${other.userId}`, { ...p.client, accessToken: s.accessToken });
    assert.equal(foreign.status, 403);
  });

  it('revokes a session by id but not the current one, and hides other users\' sessions from clients', async () => {
    const server = get();
    const p = await createProject(server);
    const s = await userWithSession(server, p);
    const second = await userWithSession(server, p);
    const otherSession = await api(server, 'POST', '/auth/sessions', p.server, { user_id: s.userId });
    const otherId = decodeJwt(otherSession.body.access_token).refresh_token_id as string;
    const currentId = decodeJwt(s.accessToken).refresh_token_id as string;
    assertKnownError(await api(server, 'DELETE', `/auth/sessions/${currentId}?user_id=me`, { ...p.client, accessToken: s.accessToken }), 'CANNOT_DELETE_CURRENT_SESSION', 400);
    const foreign = await api(server, 'DELETE', `/auth/sessions/${otherId}?user_id=me`, { ...p.client, accessToken: second.accessToken });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.text, 'Session not found.');
    const ok = await api(server, 'DELETE', `/auth/sessions/${otherId}?user_id=me`, { ...p.client, accessToken: s.accessToken });
    assert.deepEqual(ok.body, { success: true });
    assertKnownError(await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: otherSession.body.refresh_token }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  });

  it('signs out: the refresh token stops working, with or without an access token', async () => {
    const server = get();
    const p = await createProject(server);
    const s = await userWithSession(server, p);
    const out = await api(server, 'DELETE', '/auth/sessions/current', { ...p.client, accessToken: s.accessToken, refreshToken: s.refreshToken }, {});
    assert.deepEqual(out.body, { success: true });
    assertKnownError(await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: s.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    const t = await userWithSession(server, p);
    const byRefresh = await api(server, 'DELETE', '/auth/sessions/current', { ...p.client, refreshToken: t.refreshToken });
    assert.deepEqual(byRefresh.body, { success: true });
    assertKnownError(await api(server, 'DELETE', '/auth/sessions/current', { ...p.client, refreshToken: t.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    assertKnownError(await api(server, 'DELETE', '/auth/sessions/current', p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
  });

  it('rejects a token from another project with INVALID_PROJECT_FOR_ACCESS_TOKEN', async () => {
    const server = get();
    const a = await createProject(server);
    const b = await createProject(server);
    const s = await userWithSession(server, a);
    const res = await api(server, 'GET', '/users/me', { ...b.client, accessToken: s.accessToken });
    assertKnownError(res, 'INVALID_PROJECT_FOR_ACCESS_TOKEN', 401);
    assert.deepEqual(res.body.details, { expected_project_id: b.projectId, actual_project_id: a.projectId });
  });
});
