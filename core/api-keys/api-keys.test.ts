import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, createCoreUser, describeWithCore } from '../../test/helpers/core-client.ts';
import { refusal, refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import { parseApiKeySecret } from './secret.ts';
import type { InvokeInput } from '../index.ts';

/**
 * User and team API keys, in-process (test/helpers/core-client.ts). The 400 plain-text answer
 * while the feature is off is also checked on the wire in test/routes/wire-answers.test.ts.
 */

const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

describeWithCore('user and team API keys', (get) => {
  it('refuses every API key route with 400 text while the feature is off', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    await refusesWithStatus(
      t,
      'apiKeys.createUserKey',
      alice.client,
      { body: { user_id: 'me', description: 'x', expires_at_millis: null } },
      'bad-request',
      'User API keys are not enabled for this project.',
    );
    await refusesWithStatus(
      t,
      'apiKeys.checkTeamKey',
      p.server,
      { body: { api_key: 'x' } },
      'bad-request',
      'Team API keys are not enabled for this project.',
    );
  });

  it('creates a user key shown once, lists and reads it by its last four, and checks it', async () => {
    const t = get();
    const p = await createCoreProject(t, { allow_user_api_keys: true });
    const alice = await createCoreUser(t, p);
    const created = await t.call<any>('apiKeys.createUserKey', alice.client, {
      body: { user_id: 'me', description: 'CI', expires_at_millis: null },
    });
    const secret = created.value as string;
    assert.deepEqual(parseApiKeySecret(secret), { id: created.id, type: 'user', isPublic: false });
    assert.deepEqual(
      { ...created, value: 'x' },
      {
        id: created.id,
        description: 'CI',
        is_public: false,
        created_at_millis: created.created_at_millis,
        value: 'x',
        type: 'user',
        user_id: alice.id,
      },
    );

    const list = await t.call<any>('apiKeys.listUserKeys', alice.client, { query: { user_id: 'me' } });
    assert.equal(list.items.length, 1);
    assert.deepEqual(list.items[0].value, { last_four: secret.slice(-4) });
    assert.equal(JSON.stringify(list).includes(secret), false);
    const one = await t.call<any>('apiKeys.getUserKey', alice.client, { params: { api_key_id: created.id }, query: { user_id: 'me' } });
    assert.equal(one.description, 'CI');
    assert.equal((await t.call<any>('apiKeys.listUserKeys', p.server, { query: { user_id: alice.id } })).items.length, 1);

    const checked = await t.call<any>('apiKeys.checkUserKey', p.server, { body: { api_key: secret } });
    assert.equal(checked.user_id, alice.id);
    assert.deepEqual(checked.value, { last_four: secret.slice(-4) });

    const changed = secret.slice(0, 10) + (secret[10] === 'a' ? 'b' : 'a') + secret.slice(11);
    assert.equal((await t.refuses('apiKeys.checkUserKey', p.server, { body: { api_key: changed } }, 'API_KEY_NOT_FOUND')).status, 404);
    assert.equal((await t.refuses('apiKeys.checkUserKey', p.server, { body: { api_key: 'garbage' } }, 'API_KEY_NOT_FOUND')).status, 404);
    assert.equal(
      (await t.refuses('apiKeys.checkUserKey', alice.client, { body: { api_key: secret } }, 'INSUFFICIENT_ACCESS_TYPE')).status,
      401,
    );
    assert.equal((await t.refuses('apiKeys.checkUserKey', p.server, { body: {} }, 'SCHEMA_ERROR')).status, 400);
  });

  it('revokes and expires keys, and reports the wrong type', async () => {
    const t = get();
    const p = await createCoreProject(t, { allow_user_api_keys: true, allow_team_api_keys: true });
    const alice = await createCoreUser(t, p);
    const team = await t.call<{ id: string }>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    const soon = t.clock.now() + 60_000;
    const expiring = await t.call<any>('apiKeys.createUserKey', p.server, {
      body: { user_id: alice.id, description: 'soon', expires_at_millis: soon },
    });
    assert.equal(expiring.expires_at_millis, soon);
    const revocable = await t.call<any>('apiKeys.createUserKey', p.server, {
      body: { user_id: alice.id, description: 'r', expires_at_millis: null },
    });
    const teamKey = await t.call<any>('apiKeys.createTeamKey', alice.client, {
      body: { team_id: team.id, description: 't', expires_at_millis: null },
    });
    assert.equal(teamKey.team_id, team.id);

    const wrong = await t.refuses('apiKeys.checkUserKey', p.server, { body: { api_key: teamKey.value } }, 'WRONG_API_KEY_TYPE');
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.details, { expected_type: 'user', actual_type: 'team' });
    assert.equal((await t.call<any>('apiKeys.checkTeamKey', p.server, { body: { api_key: teamKey.value } })).team_id, team.id);

    const revoked = await t.call<any>('apiKeys.updateUserKey', alice.client, {
      params: { api_key_id: revocable.id },
      query: { user_id: 'me' },
      body: { revoked: true, description: 'gone' },
    });
    assert.equal(revoked.manually_revoked_at_millis, t.clock.now());
    assert.equal(revoked.description, 'gone');
    assert.equal(
      (await t.refuses('apiKeys.checkUserKey', p.server, { body: { api_key: revocable.value } }, 'API_KEY_REVOKED')).status,
      401,
    );

    t.clock.advance(61_000);
    assert.equal((await t.refuses('apiKeys.checkUserKey', p.server, { body: { api_key: expiring.value } }, 'API_KEY_EXPIRED')).status, 401);

    const pub = await t.call<any>('apiKeys.createUserKey', alice.client, {
      body: { user_id: 'me', description: 'pub', expires_at_millis: null, is_public: true },
    });
    assert.match(pub.value, /^pk_/);
    assert.equal(
      (
        await t.refuses(
          'apiKeys.updateUserKey',
          alice.client,
          { params: { api_key_id: pub.id }, body: { revoked: true } },
          'PUBLIC_API_KEY_CANNOT_BE_REVOKED',
        )
      ).status,
      400,
    );
  });

  it('keeps clients to their own keys and to teams where they hold $manage_api_keys', async () => {
    const t = get();
    const p = await createCoreProject(t, { allow_user_api_keys: true, allow_team_api_keys: true });
    const alice = await createCoreUser(t, p);
    const bob = await createCoreUser(t, p);
    const team = await t.call<{ id: string }>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    await t.call('teams.addMember', p.server, { params: { team_id: team.id, user_id: bob.id }, body: {} });
    const aliceKey = await t.call<{ id: string }>('apiKeys.createUserKey', alice.client, {
      body: { user_id: 'me', description: 'a', expires_at_millis: null },
    });
    const teamKey = await t.call<{ id: string }>('apiKeys.createTeamKey', p.server, {
      body: { team_id: team.id, description: 't', expires_at_millis: null },
    });

    // Each of these answered 403 over HTTP: a client reaching another user's keys.
    assert.equal(
      await refusal(t, 'apiKeys.createUserKey', bob.client, { body: { user_id: alice.id, description: 'x', expires_at_millis: null } }),
      'status:forbidden',
    );
    assert.equal(await refusal(t, 'apiKeys.listUserKeys', bob.client, { query: { user_id: alice.id } }), 'status:forbidden');
    assert.equal(await refusal(t, 'apiKeys.getUserKey', bob.client, { params: { api_key_id: aliceKey.id } }), 'status:forbidden');
    assert.equal(
      (
        await t.refuses(
          'apiKeys.getUserKey',
          bob.client,
          { params: { api_key_id: aliceKey.id }, query: { user_id: 'me' } },
          'API_KEY_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      await refusal(t, 'apiKeys.updateUserKey', bob.client, { params: { api_key_id: aliceKey.id }, body: { revoked: true } }),
      'status:forbidden',
    );
    const refusedWith = async (operationId: string, credentials: typeof p.client, input: InvokeInput, code: string, status: number) => {
      assert.equal((await t.refuses(operationId, credentials, input, code)).status, status, `${operationId} ${code}`);
    };
    // 400 over HTTP: no user_id.
    await refusedWith('apiKeys.listUserKeys', bob.client, {}, 'SCHEMA_ERROR', 400);
    await refusedWith(
      'apiKeys.createUserKey',
      p.client,
      { body: { user_id: 'me', description: 'x', expires_at_millis: null } },
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
      400,
    );
    await refusedWith('apiKeys.getUserKey', p.client, { params: { api_key_id: aliceKey.id } }, 'USER_AUTHENTICATION_REQUIRED', 401);
    await refusedWith(
      'apiKeys.updateUserKey',
      p.client,
      { params: { api_key_id: aliceKey.id }, body: { description: 'x' } },
      'USER_AUTHENTICATION_REQUIRED',
      401,
    );
    await refusedWith(
      'apiKeys.createUserKey',
      p.client,
      { body: { user_id: alice.id, description: 'x', expires_at_millis: null } },
      'USER_AUTHENTICATION_REQUIRED',
      401,
    );
    await refusedWith('apiKeys.listTeamKeys', p.client, { query: { team_id: team.id } }, 'USER_AUTHENTICATION_REQUIRED', 401);
    await refusedWith('apiKeys.listUserKeys', p.server, { query: { user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    await refusedWith(
      'apiKeys.getUserKey',
      p.server,
      { params: { api_key_id: aliceKey.id }, query: { user_id: 'me' } },
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
      400,
    );
    await refusedWith(
      'apiKeys.updateUserKey',
      p.server,
      { params: { api_key_id: aliceKey.id }, query: { user_id: 'me' }, body: {} },
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
      400,
    );

    // Bob is a team_member: no $manage_api_keys, so the team's keys look absent.
    await refusedWith(
      'apiKeys.createTeamKey',
      bob.client,
      { body: { team_id: team.id, description: 'x', expires_at_millis: null } },
      'API_KEY_NOT_FOUND',
      404,
    );
    await refusedWith('apiKeys.listTeamKeys', bob.client, { query: { team_id: team.id } }, 'API_KEY_NOT_FOUND', 404);
    await refusedWith('apiKeys.getTeamKey', bob.client, { params: { api_key_id: teamKey.id } }, 'API_KEY_NOT_FOUND', 404);
    await refusedWith(
      'apiKeys.updateTeamKey',
      bob.client,
      { params: { api_key_id: teamKey.id }, body: { description: 'x' } },
      'API_KEY_NOT_FOUND',
      404,
    );
    const listed = await t.call<{ items: Array<{ id: string }> }>('apiKeys.listTeamKeys', alice.client, { query: { team_id: team.id } });
    assert.deepEqual(
      listed.items.map((k) => k.id),
      [teamKey.id],
    );
    assert.equal(
      (await t.call<any>('apiKeys.getTeamKey', alice.client, { params: { api_key_id: teamKey.id }, query: { team_id: team.id } })).type,
      'team',
    );
    assert.equal(
      (await t.call<any>('apiKeys.updateTeamKey', alice.client, { params: { api_key_id: teamKey.id }, body: { description: 'renamed' } }))
        .description,
      'renamed',
    );
  });

  it('answers not-found and bad input', async () => {
    const t = get();
    const p = await createCoreProject(t, { allow_user_api_keys: true, allow_team_api_keys: true });
    const refusedWith = async (operationId: string, credentials: typeof p.server, input: InvokeInput, code: string, status: number) => {
      assert.equal((await t.refuses(operationId, credentials, input, code)).status, status, `${operationId} ${code}`);
    };
    await refusedWith(
      'apiKeys.createUserKey',
      p.server,
      { body: { user_id: MISSING, description: 'x', expires_at_millis: null } },
      'USER_NOT_FOUND',
      404,
    );
    await refusedWith(
      'apiKeys.createTeamKey',
      p.server,
      { body: { team_id: MISSING, description: 'x', expires_at_millis: null } },
      'TEAM_NOT_FOUND',
      404,
    );
    await refusedWith('apiKeys.getUserKey', p.server, { params: { api_key_id: MISSING } }, 'API_KEY_NOT_FOUND', 404);
    await refusedWith('apiKeys.updateTeamKey', p.admin, { params: { api_key_id: MISSING }, body: {} }, 'API_KEY_NOT_FOUND', 404);
    await refusedWith('apiKeys.getUserKey', p.server, { params: { api_key_id: 'not-a-uuid' } }, 'SCHEMA_ERROR', 400);
    await refusedWith('apiKeys.createUserKey', p.server, { body: { user_id: 'me' } }, 'SCHEMA_ERROR', 400);
    await refusedWith(
      'apiKeys.updateUserKey',
      p.server,
      { params: { api_key_id: MISSING }, body: { revoked: 'yes' } },
      'SCHEMA_ERROR',
      400,
    );
    await refusedWith('apiKeys.createTeamKey', p.server, { body: { team_id: MISSING, description: 'x', extra: 1 } }, 'SCHEMA_ERROR', 400);
  });
});
