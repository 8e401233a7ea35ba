import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decodeJwt } from 'jose';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { coreBaseUrl, createCoreProjectKeys, keyCredentials, verifyWithProjectJwks } from '../../test/helpers/core-fixtures-b.ts';

/**
 * Anonymous users, in-process (test/helpers/core-client.ts). The wire side (a POST with no body
 * and no content-type, the known-error headers) is in test/routes/wire-answers.test.ts.
 */
describeWithCore('anonymous', (get) => {
  it('creates an anonymous, restricted user with a personal team and tokens for the :anon audience', async () => {
    const t = get();
    const { client, projectId } = await createCoreProject(t, { create_team_on_sign_up: true });
    const body = await t.call<{ access_token: string; refresh_token: string; user_id: string }>('anonymous.signUp', client);
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'refresh_token', 'user_id']);
    const claims = decodeJwt(body.access_token);
    assert.equal(claims.aud, `${projectId}:anon`);
    assert.equal(claims.iss, `${coreBaseUrl(t)}/api/v1/projects-anonymous-users/${projectId}`);
    assert.equal(claims.is_anonymous, true);
    assert.equal(claims.is_restricted, true);
    assert.deepEqual(claims.restricted_reason, { type: 'anonymous' });

    const verified = await verifyWithProjectJwks(t, projectId, body.access_token, { include_anonymous: 'true' });
    assert.equal(verified.sub, body.user_id);
    // Without the anonymous keys the token does not verify.
    await assert.rejects(verifyWithProjectJwks(t, projectId, body.access_token));

    const me = await t.call<any>('users.getCurrent', { ...client, accessToken: body.access_token, allowAnonymousUser: true });
    assert.equal(me.id, body.user_id);
    assert.equal(me.is_anonymous, true);
    assert.equal(me.is_restricted, true);
    assert.deepEqual(me.restricted_reason, { type: 'anonymous' });
    assert.equal(me.primary_email, null);
    assert.equal(me.selected_team.display_name, 'Personal Team');

    const refreshed = await t.call<{ access_token: string }>('sessions.refreshCurrent', { ...client, refreshToken: body.refresh_token });
    assert.equal(decodeJwt(refreshed.access_token).aud, `${projectId}:anon`);
  });

  it('refuses an anonymous token without allowAnonymousUser with ANONYMOUS_AUTHENTICATION_NOT_ALLOWED', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const anon = await t.call<{ access_token: string }>('anonymous.signUp', client);
    const refused = await t.refuses(
      'users.getCurrent',
      { ...client, accessToken: anon.access_token },
      {},
      'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED',
    );
    assert.equal(refused.status, 401);
    const restrictedOnly = await t.refuses(
      'users.getCurrent',
      { ...client, accessToken: anon.access_token, allowRestrictedUser: true },
      {},
      'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED',
    );
    assert.equal(restrictedOnly.status, 401);
  });

  it('allows anonymous sign-up when sign-up is disabled', async () => {
    const t = get();
    const { client } = await createCoreProject(t, { sign_up_enabled: false });
    const body = await t.call<{ user_id: string }>('anonymous.signUp', client);
    assert.ok(body.user_id);
  });

  it('works for client, server and admin keys, and rejects a body, a bad key and no access type', async () => {
    const t = get();
    const { admin, projectId } = await createCoreProject(t);
    const keys = keyCredentials(projectId, await createCoreProjectKeys(t, admin));
    for (const credentials of [keys.client, keys.server, keys.admin]) {
      const body = await t.call<{ user_id: string }>('anonymous.signUp', credentials);
      assert.ok(body.user_id, credentials.accessType);
    }
    assert.equal(
      (
        await t.refuses(
          'anonymous.signUp',
          { projectId, accessType: 'server', secretServerKey: 'ssk_wrong' },
          {},
          'INVALID_SECRET_SERVER_KEY',
        )
      ).status,
      401,
    );
    assert.equal((await t.refuses('anonymous.signUp', { projectId }, {}, 'ACCESS_TYPE_REQUIRED')).status, 400);
    assert.equal(
      (await t.refuses('anonymous.signUp', { projectId, accessType: 'client' }, { body: { display_name: 'x' } }, 'SCHEMA_ERROR')).status,
      400,
    );
  });
});
