import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decodeJwt } from 'jose';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { callJson, coreBaseUrl, refusal, refusesWithStatus, verifyWithProjectJwks } from '../../test/helpers/core-fixtures-b.ts';

/**
 * Sessions and tokens, in-process (test/helpers/core-client.ts). On the wire, in
 * test/routes/wire-answers.test.ts: the OAuth refresh_token grant as the official SDK posts it
 * (a form body, known-error headers) and the JWKS's cache-control and 404.
 */

type Project = Awaited<ReturnType<typeof createCoreProject>>;

async function userWithSession(t: TestCore, p: Project, extra: Record<string, unknown> = {}) {
  const user = await t.call<{ id: string }>('users.create', p.server, {
    body: { primary_email: `u${Math.random().toString(36).slice(2)}@example.com`, display_name: 'Ada' },
  });
  const session = await t.call<{ access_token: string; refresh_token: string }>('sessions.create', p.server, {
    body: { user_id: user.id, ...extra },
  });
  return { userId: user.id, accessToken: session.access_token, refreshToken: session.refresh_token };
}

describeWithCore('sessions and tokens', (get) => {
  it('creates a session whose access token carries exactly the wire-protocol claims', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const s = await userWithSession(t, p);
    assert.match(s.refreshToken, /^[0-9a-z]{45}$/);
    const claims = decodeJwt(s.accessToken);
    assert.deepEqual(Object.keys(claims).sort(), [
      'aud',
      'branch_id',
      'email',
      'email_verified',
      'exp',
      'iat',
      'is_anonymous',
      'is_restricted',
      'iss',
      'name',
      'project_id',
      'refresh_token_id',
      'requires_totp_mfa',
      'restricted_reason',
      'role',
      'selected_team_id',
      'signed_up_at',
      'sub',
    ]);
    assert.equal(claims.sub, s.userId);
    assert.equal(claims.aud, p.projectId);
    assert.equal(claims.iss, `${coreBaseUrl(t)}/api/v1/projects/${p.projectId}`);
    assert.equal(claims.role, 'authenticated');
    assert.equal(claims.name, 'Ada');
    assert.equal(claims.branch_id, 'main');
    assert.equal(claims.is_restricted, false);
    assert.equal(claims.restricted_reason, null);
    assert.equal((claims.exp as number) - (claims.iat as number), 600);
  });

  it('answers USER_ID_DOES_NOT_EXIST for an unknown user and refuses clients', async () => {
    const t = get();
    const p = await createCoreProject(t);
    assert.equal(
      (
        await t.refuses(
          'sessions.create',
          p.server,
          { body: { user_id: '7b0f3a52-2a1c-4d59-8e0e-1b8c2a5d6f70' } },
          'USER_ID_DOES_NOT_EXIST',
        )
      ).status,
      400,
    );
    assert.equal(
      (
        await t.refuses(
          'sessions.create',
          p.client,
          { body: { user_id: '7b0f3a52-2a1c-4d59-8e0e-1b8c2a5d6f70' } },
          'INSUFFICIENT_ACCESS_TYPE',
        )
      ).status,
      401,
    );
    assert.equal(
      (await t.refuses('sessions.create', p.server, { body: { user_id: 'nope', expires_in_millis: 400 * 86400000 } }, 'SCHEMA_ERROR'))
        .status,
      400,
    );
  });

  it('verifies tokens against the JWKS: 2 keys, 4 with restricted, 6 with anonymous', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const jwks = (query: Record<string, string> = {}) =>
      callJson<{ keys: Array<{ kid: string; alg: string; crv: string; kty: string }> }>(
        t,
        'meta.jwks',
        {},
        { params: { project_id: p.projectId }, query },
      );
    const two = await jwks();
    assert.equal(two.keys.length, 2);
    assert.deepEqual([two.keys[0]!.kty, two.keys[0]!.alg, two.keys[0]!.crv], ['EC', 'ES256', 'P-256']);
    assert.equal((await jwks({ include_restricted: 'true' })).keys.length, 4);
    assert.equal((await jwks({ include_anonymous: 'true' })).keys.length, 6);
    await refusesWithStatus(
      t,
      'meta.jwks',
      {},
      { params: { project_id: '7b0f3a52-2a1c-4d59-8e0e-1b8c2a5d6f70' } },
      'not-found',
      'Project not found.',
    );

    const s = await userWithSession(t, p);
    const verified = await verifyWithProjectJwks(t, p.projectId, s.accessToken);
    assert.equal(verified.sub, s.userId);
    assert.equal(verified.aud, p.projectId);
  });

  it('refreshes with the refresh token without rotating it, and updates last-active times', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const s = await userWithSession(t, p);
    t.clock.advance(5000);
    const res = await t.call<{ access_token: string }>('sessions.refreshCurrent', { ...p.client, refreshToken: s.refreshToken });
    assert.deepEqual(Object.keys(res), ['access_token']);
    assert.equal(decodeJwt(res.access_token).refresh_token_id, decodeJwt(s.accessToken).refresh_token_id);
    const user = await t.call<{ last_active_at_millis: number }>('users.getCurrent', { ...p.server, accessToken: res.access_token });
    assert.equal(user.last_active_at_millis, t.clock.now());
    await t.call('sessions.refreshCurrent', { ...p.client, refreshToken: s.refreshToken });
    assert.equal(
      (await t.refuses('sessions.refreshCurrent', { ...p.client, refreshToken: 'wrong' }, {}, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED')).status,
      401,
    );
    assert.equal((await t.refuses('sessions.refreshCurrent', p.client, {}, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED')).status, 401);
  });

  it('expires refresh tokens at their lifetime and access tokens after ten minutes', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const s = await userWithSession(t, p, { expires_in_millis: 60_000 });
    t.clock.advance(61_000);
    assert.equal(
      (await t.refuses('sessions.refreshCurrent', { ...p.client, refreshToken: s.refreshToken }, {}, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'))
        .status,
      401,
    );
    const u = await userWithSession(t, p);
    t.clock.advance(601_000);
    const expired = await t.refuses('users.getCurrent', { ...p.client, accessToken: u.accessToken }, {}, 'ACCESS_TOKEN_EXPIRED');
    assert.equal(expired.status, 401);
    assert.equal(typeof expired.details.expired_at_millis, 'number');
  });

  it('serves the OAuth refresh_token grant the official SDK uses, answering known errors', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const s = await userWithSession(t, p);
    const grant = (fields: Record<string, string>) => ({ body: { grant_type: 'refresh_token', ...fields } });
    const ok = await t.call<{ token_type: string; access_token: string }>(
      'authOauth.token',
      {},
      grant({ refresh_token: s.refreshToken, client_id: p.projectId, client_secret: '__stack_public_client__' }),
    );
    assert.equal(ok.token_type, 'Bearer');
    assert.equal(decodeJwt(ok.access_token).sub, s.userId);
    assert.equal(
      (
        await t.refuses(
          'authOauth.token',
          {},
          grant({ refresh_token: 'nope', client_id: p.projectId, client_secret: '__stack_public_client__' }),
          'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
        )
      ).status,
      401,
    );
    await t.refuses(
      'authOauth.token',
      {},
      grant({ refresh_token: s.refreshToken, client_id: p.projectId, client_secret: 'pck_wrong' }),
      'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
    );
    const otherProject = await createCoreProject(t);
    await t.refuses(
      'authOauth.token',
      {},
      grant({ refresh_token: s.refreshToken, client_id: otherProject.projectId }),
      'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
    );
  });

  it('lists sessions newest first, marks the current one, and shows impersonation only to admins', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const s = await userWithSession(t, p);
    t.clock.advance(1000);
    await t.call('sessions.create', p.server, { body: { user_id: s.userId, is_impersonation: true } });
    const asClient = await t.call<any>('sessions.list', { ...p.client, accessToken: s.accessToken }, { query: { user_id: 'me' } });
    assert.equal(asClient.items.length, 1);
    assert.equal(asClient.items[0].is_current_session, true);
    const asAdmin = await t.call<any>('sessions.list', p.admin, { query: { user_id: s.userId } });
    assert.equal(asAdmin.items.length, 2);
    assert.equal(asAdmin.items[0].is_impersonation, true);
    assert.equal(asAdmin.is_paginated, false);
    assert.equal(
      (await t.refuses('sessions.list', p.client, { query: { user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status,
      400,
    );
    const other = await userWithSession(t, p);
    // 403 on the wire.
    assert.equal(
      await refusal(t, 'sessions.list', { ...p.client, accessToken: s.accessToken }, { query: { user_id: other.userId } }),
      'status:forbidden',
    );
  });

  it("revokes a session by id but not the current one, and hides other users' sessions from clients", async () => {
    const t = get();
    const p = await createCoreProject(t);
    const s = await userWithSession(t, p);
    const second = await userWithSession(t, p);
    const otherSession = await t.call<{ access_token: string; refresh_token: string }>('sessions.create', p.server, {
      body: { user_id: s.userId },
    });
    const otherId = decodeJwt(otherSession.access_token).refresh_token_id as string;
    const currentId = decodeJwt(s.accessToken).refresh_token_id as string;
    assert.equal(
      (
        await t.refuses(
          'sessions.delete',
          { ...p.client, accessToken: s.accessToken },
          { params: { id: currentId }, query: { user_id: 'me' } },
          'CANNOT_DELETE_CURRENT_SESSION',
        )
      ).status,
      400,
    );
    await refusesWithStatus(
      t,
      'sessions.delete',
      { ...p.client, accessToken: second.accessToken },
      { params: { id: otherId }, query: { user_id: 'me' } },
      'not-found',
      'Session not found.',
    );
    assert.deepEqual(
      await t.call('sessions.delete', { ...p.client, accessToken: s.accessToken }, { params: { id: otherId }, query: { user_id: 'me' } }),
      { success: true },
    );
    await t.refuses(
      'sessions.refreshCurrent',
      { ...p.client, refreshToken: otherSession.refresh_token },
      {},
      'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
    );
  });

  it('signs out: the refresh token stops working, with or without an access token', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const s = await userWithSession(t, p);
    assert.deepEqual(
      await t.call('sessions.deleteCurrent', { ...p.client, accessToken: s.accessToken, refreshToken: s.refreshToken }, { body: {} }),
      { success: true },
    );
    await t.refuses('sessions.refreshCurrent', { ...p.client, refreshToken: s.refreshToken }, {}, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    const u = await userWithSession(t, p);
    assert.deepEqual(await t.call('sessions.deleteCurrent', { ...p.client, refreshToken: u.refreshToken }), { success: true });
    assert.equal(
      (await t.refuses('sessions.deleteCurrent', { ...p.client, refreshToken: u.refreshToken }, {}, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'))
        .status,
      401,
    );
    assert.equal((await t.refuses('sessions.deleteCurrent', p.client, {}, 'USER_AUTHENTICATION_REQUIRED')).status, 401);
  });

  it('rejects a token from another project with INVALID_PROJECT_FOR_ACCESS_TOKEN', async () => {
    const t = get();
    const a = await createCoreProject(t);
    const b = await createCoreProject(t);
    const s = await userWithSession(t, a);
    const refused = await t.refuses(
      'users.getCurrent',
      { ...b.client, accessToken: s.accessToken },
      {},
      'INVALID_PROJECT_FOR_ACCESS_TOKEN',
    );
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.details, { expected_project_id: b.projectId, actual_project_id: a.projectId });
  });
});
