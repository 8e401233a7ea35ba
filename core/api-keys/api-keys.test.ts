import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { projectUser } from '../../test/helpers/project-user.ts';
import { parseApiKeySecret } from './secret.ts';

const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

describeWithServer('user and team API keys', (get) => {
  it('refuses every API key route with 400 text while the feature is off', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const res = await api(server, 'POST', '/user-api-keys', alice.client, { user_id: 'me', description: 'x', expires_at_millis: null });
    assert.equal(res.status, 400);
    assert.equal(res.text, 'User API keys are not enabled for this project.');
    const team = await api(server, 'POST', '/team-api-keys/check', p.server, { api_key: 'x' });
    assert.equal(team.status, 400);
    assert.equal(team.text, 'Team API keys are not enabled for this project.');
  });

  it('creates a user key shown once, lists and reads it by its last four, and checks it', async () => {
    const server = get();
    const p = await createProject(server, { allow_user_api_keys: true });
    const alice = await projectUser(server, p);
    const created = await api(server, 'POST', '/user-api-keys', alice.client, { user_id: 'me', description: 'CI', expires_at_millis: null });
    assert.equal(created.status, 200, created.text);
    const secret = created.body.value as string;
    assert.deepEqual(parseApiKeySecret(secret), { id: created.body.id, type: 'user', isPublic: false });
    assert.deepEqual({ ...created.body, value: 'x' }, {
      id: created.body.id, description: 'CI', is_public: false, created_at_millis: created.body.created_at_millis, value: 'x', type: 'user', user_id: alice.id,
    });

    const list = await api(server, 'GET', '/user-api-keys?user_id=me', alice.client);
    assert.equal(list.body.items.length, 1);
    assert.deepEqual(list.body.items[0].value, { last_four: secret.slice(-4) });
    assert.equal(list.text.includes(secret), false);
    const one = await api(server, 'GET', `/user-api-keys/${created.body.id}?user_id=me`, alice.client);
    assert.equal(one.body.description, 'CI');
    assert.equal((await api(server, 'GET', `/user-api-keys?user_id=${alice.id}`, p.server)).body.items.length, 1);

    const checked = await api(server, 'POST', '/user-api-keys/check', p.server, { api_key: secret });
    assert.equal(checked.status, 200, checked.text);
    assert.equal(checked.body.user_id, alice.id);
    assert.deepEqual(checked.body.value, { last_four: secret.slice(-4) });

    const changed = secret.slice(0, 10) + (secret[10] === 'a' ? 'b' : 'a') + secret.slice(11);
    assertKnownError(await api(server, 'POST', '/user-api-keys/check', p.server, { api_key: changed }), 'API_KEY_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/user-api-keys/check', p.server, { api_key: 'garbage' }), 'API_KEY_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/user-api-keys/check', alice.client, { api_key: secret }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'POST', '/user-api-keys/check', p.server, {}), 'SCHEMA_ERROR', 400);
  });

  it('revokes and expires keys, and reports the wrong type', async () => {
    const server = get();
    const p = await createProject(server, { allow_user_api_keys: true, allow_team_api_keys: true });
    const alice = await projectUser(server, p);
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id })).body;
    const soon = server.clock.now() + 60_000;
    const expiring = await api(server, 'POST', '/user-api-keys', p.server, { user_id: alice.id, description: 'soon', expires_at_millis: soon });
    assert.equal(expiring.body.expires_at_millis, soon);
    const revocable = await api(server, 'POST', '/user-api-keys', p.server, { user_id: alice.id, description: 'r', expires_at_millis: null });
    const teamKey = await api(server, 'POST', '/team-api-keys', alice.client, { team_id: team.id, description: 't', expires_at_millis: null });
    assert.equal(teamKey.status, 200, teamKey.text);
    assert.equal(teamKey.body.team_id, team.id);

    const wrong = await api(server, 'POST', '/user-api-keys/check', p.server, { api_key: teamKey.body.value });
    assertKnownError(wrong, 'WRONG_API_KEY_TYPE', 400);
    assert.deepEqual(wrong.body.details, { expected_type: 'user', actual_type: 'team' });
    assert.equal((await api(server, 'POST', '/team-api-keys/check', p.server, { api_key: teamKey.body.value })).status, 200);

    const revoked = await api(server, 'PATCH', `/user-api-keys/${revocable.body.id}?user_id=me`, alice.client, { revoked: true, description: 'gone' });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.body.manually_revoked_at_millis, server.clock.now());
    assert.equal(revoked.body.description, 'gone');
    assertKnownError(await api(server, 'POST', '/user-api-keys/check', p.server, { api_key: revocable.body.value }), 'API_KEY_REVOKED', 401);

    server.clock.advance(61_000);
    assertKnownError(await api(server, 'POST', '/user-api-keys/check', p.server, { api_key: expiring.body.value }), 'API_KEY_EXPIRED', 401);

    const pub = await api(server, 'POST', '/user-api-keys', alice.client, { user_id: 'me', description: 'pub', expires_at_millis: null, is_public: true });
    assert.match(pub.body.value, /^pk_/);
    assertKnownError(await api(server, 'PATCH', `/user-api-keys/${pub.body.id}`, alice.client, { revoked: true }), 'PUBLIC_API_KEY_CANNOT_BE_REVOKED', 400);
  });

  it('keeps clients to their own keys and to teams where they hold $manage_api_keys', async () => {
    const server = get();
    const p = await createProject(server, { allow_user_api_keys: true, allow_team_api_keys: true });
    const alice = await projectUser(server, p);
    const bob = await projectUser(server, p);
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id })).body;
    await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, p.server, {});
    const aliceKey = (await api(server, 'POST', '/user-api-keys', alice.client, { user_id: 'me', description: 'a', expires_at_millis: null })).body;
    const teamKey = (await api(server, 'POST', '/team-api-keys', p.server, { team_id: team.id, description: 't', expires_at_millis: null })).body;

    assert.equal((await api(server, 'POST', '/user-api-keys', bob.client, { user_id: alice.id, description: 'x', expires_at_millis: null })).status, 403);
    assert.equal((await api(server, 'GET', `/user-api-keys?user_id=${alice.id}`, bob.client)).status, 403);
    assert.equal((await api(server, 'GET', `/user-api-keys/${aliceKey.id}`, bob.client)).status, 403);
    assertKnownError(await api(server, 'GET', `/user-api-keys/${aliceKey.id}?user_id=me`, bob.client), 'API_KEY_NOT_FOUND', 404);
    assert.equal((await api(server, 'PATCH', `/user-api-keys/${aliceKey.id}`, bob.client, { revoked: true })).status, 403);
    assert.equal((await api(server, 'GET', '/user-api-keys', bob.client)).status, 400);
    assertKnownError(await api(server, 'POST', '/user-api-keys', p.client, { user_id: 'me', description: 'x', expires_at_millis: null }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'GET', `/user-api-keys/${aliceKey.id}`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'PATCH', `/user-api-keys/${aliceKey.id}`, p.client, { description: 'x' }), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'POST', '/user-api-keys', p.client, { user_id: alice.id, description: 'x', expires_at_millis: null }), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'GET', `/team-api-keys?team_id=${team.id}`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'GET', '/user-api-keys?user_id=me', p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'GET', `/user-api-keys/${aliceKey.id}?user_id=me`, p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'PATCH', `/user-api-keys/${aliceKey.id}?user_id=me`, p.server, {}), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);

    // Bob is a team_member: no $manage_api_keys, so the team's keys look absent.
    assertKnownError(await api(server, 'POST', '/team-api-keys', bob.client, { team_id: team.id, description: 'x', expires_at_millis: null }), 'API_KEY_NOT_FOUND', 404);
    assertKnownError(await api(server, 'GET', `/team-api-keys?team_id=${team.id}`, bob.client), 'API_KEY_NOT_FOUND', 404);
    assertKnownError(await api(server, 'GET', `/team-api-keys/${teamKey.id}`, bob.client), 'API_KEY_NOT_FOUND', 404);
    assertKnownError(await api(server, 'PATCH', `/team-api-keys/${teamKey.id}`, bob.client, { description: 'x' }), 'API_KEY_NOT_FOUND', 404);
    const listed = await api(server, 'GET', `/team-api-keys?team_id=${team.id}`, alice.client);
    assert.deepEqual(listed.body.items.map((k: { id: string }) => k.id), [teamKey.id]);
    assert.equal((await api(server, 'GET', `/team-api-keys/${teamKey.id}?team_id=${team.id}`, alice.client)).body.type, 'team');
    assert.equal((await api(server, 'PATCH', `/team-api-keys/${teamKey.id}`, alice.client, { description: 'renamed' })).body.description, 'renamed');
  });

  it('answers not-found and bad input', async () => {
    const server = get();
    const p = await createProject(server, { allow_user_api_keys: true, allow_team_api_keys: true });
    assertKnownError(await api(server, 'POST', '/user-api-keys', p.server, { user_id: MISSING, description: 'x', expires_at_millis: null }), 'USER_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/team-api-keys', p.server, { team_id: MISSING, description: 'x', expires_at_millis: null }), 'TEAM_NOT_FOUND', 404);
    assertKnownError(await api(server, 'GET', `/user-api-keys/${MISSING}`, p.server), 'API_KEY_NOT_FOUND', 404);
    assertKnownError(await api(server, 'PATCH', `/team-api-keys/${MISSING}`, p.admin, {}), 'API_KEY_NOT_FOUND', 404);
    assertKnownError(await api(server, 'GET', '/user-api-keys/not-a-uuid', p.server), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/user-api-keys', p.server, { user_id: 'me' }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'PATCH', `/user-api-keys/${MISSING}`, p.server, { revoked: 'yes' }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/team-api-keys', p.server, { team_id: MISSING, description: 'x', extra: 1 }), 'SCHEMA_ERROR', 400);
  });
});
