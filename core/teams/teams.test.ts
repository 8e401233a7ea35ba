import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  createCoreInternalUser,
  createCoreProject,
  createCoreUser,
  describeWithCore,
  internalCredentials,
} from '../../test/helpers/core-client.ts';

/**
 * Teams, memberships and member profiles as domain behaviour, called through `core.invoke` with
 * no HTTP (test/helpers/core-client.ts); what these answers look like on the wire is covered by
 * the route tests (test/routes).
 */

const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

type Team = { id: string; display_name: string; client_metadata?: unknown; server_metadata?: unknown; created_at_millis?: number };
type List<T> = { items: T[]; is_paginated: boolean; pagination?: { next_cursor: string | null } };

describeWithCore('teams', (get) => {
  it('lets a client create a team as itself when client team creation is enabled, and makes it team_admin', async () => {
    const t = get();
    const p = await createCoreProject(t, { client_team_creation_enabled: true });
    const alice = await createCoreUser(t, p, { display_name: 'Alice' });
    const created = await t.call<Team>('teams.create', alice.client, {
      body: { display_name: 'Alpha', creator_user_id: 'me', client_metadata: { a: 1 } },
    });
    assert.deepEqual(Object.keys(created).sort(), [
      'client_metadata',
      'client_read_only_metadata',
      'display_name',
      'id',
      'profile_image_url',
    ]);
    assert.deepEqual(created.client_metadata, { a: 1 });

    const mine = await t.call<List<Team>>('teams.list', alice.client, { query: { user_id: 'me' } });
    assert.deepEqual(
      mine.items.map((team) => team.id),
      [created.id],
    );
    assert.equal(mine.is_paginated, false);

    // Upstream lists direct grants unless recursive=true: a creator has [team_admin].
    const direct = await t.call('permissions.listTeam', alice.client, { query: { team_id: created.id, user_id: 'me' } });
    assert.deepEqual(direct, { items: [{ id: 'team_admin', team_id: created.id, user_id: alice.id }], is_paginated: false });
    const perms = await t.call<List<{ id: string }>>('permissions.listTeam', alice.client, {
      query: { team_id: created.id, user_id: 'me', recursive: 'true' },
    });
    assert.deepEqual(
      perms.items.map((i) => i.id),
      [
        '$delete_team',
        '$invite_members',
        '$manage_api_keys',
        '$manage_sso',
        '$read_members',
        '$remove_members',
        '$update_team',
        'team_admin',
      ],
    );

    assert.equal((await t.call<Team>('teams.get', alice.client, { params: { team_id: created.id } })).display_name, 'Alpha');
  });

  it('refuses client team creation when disabled, as another user, and without a user', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    await assert.rejects(
      t.core.invoke('teams.create', alice.client, { body: { display_name: 'X', creator_user_id: 'me' } }),
      /Client team creation is disabled for this project\. Turn on "Users may create teams" on the dashboard's Auth methods page \(config key teams\.allowClientTeamCreation/,
    );

    await t.call('projects.updateCurrent', p.admin, { body: { config: { client_team_creation_enabled: true } } });
    const bob = await createCoreUser(t, p);
    await assert.rejects(t.core.invoke('teams.create', alice.client, { body: { display_name: 'X', creator_user_id: bob.id } }));
    await t.refuses('teams.create', p.client, { body: { display_name: 'X', creator_user_id: 'me' } }, 'USER_AUTHENTICATION_REQUIRED');
  });

  it('creates teams on the server with server fields, lists all teams, and honours add_current_user', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    const res = await t.call<Team>('teams.create', p.server, {
      body: { display_name: 'Srv', server_metadata: { s: true }, client_read_only_metadata: { r: 1 }, creator_user_id: alice.id },
    });
    assert.deepEqual(res.server_metadata, { s: true });
    assert.equal(typeof res.created_at_millis, 'number');
    t.clock.advance(1000);
    await t.call('teams.create', p.server, { body: { display_name: 'Empty' } });
    const all = await t.call<List<Team>>('teams.list', p.server);
    assert.deepEqual(
      all.items.map((team) => team.display_name),
      ['Srv', 'Empty'],
    );
    const ofAlice = await t.call<List<Team>>('teams.list', p.server, { query: { user_id: alice.id } });
    assert.deepEqual(
      ofAlice.items.map((team) => team.id),
      [res.id],
    );

    const viaToken = await t.call<Team>(
      'teams.create',
      { ...p.server, accessToken: alice.accessToken },
      { query: { add_current_user: 'true' }, body: { display_name: 'Deprecated' } },
    );
    const members = await t.call<List<{ user_id: string }>>('teams.listMemberProfiles', p.server, { query: { team_id: viaToken.id } });
    assert.deepEqual(
      members.items.map((m) => m.user_id),
      [alice.id],
    );

    await t.refuses('teams.create', p.server, { body: { display_name: 'X', creator_user_id: MISSING } }, 'USER_NOT_FOUND');
    await t.refuses('teams.create', p.server, { body: { display_name: 'X', creator_user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });

  it('rejects bad input with SCHEMA_ERROR', async () => {
    const t = get();
    const p = await createCoreProject(t, { client_team_creation_enabled: true });
    const alice = await createCoreUser(t, p);
    await t.refuses('teams.create', p.server, { body: {} }, 'SCHEMA_ERROR');
    await t.refuses('teams.create', p.server, { body: { display_name: 'X', extra: 1 } }, 'SCHEMA_ERROR');
    // A client may not set server-only fields.
    await t.refuses(
      'teams.create',
      alice.client,
      { body: { display_name: 'X', creator_user_id: 'me', server_metadata: {} } },
      'SCHEMA_ERROR',
    );
    await t.refuses('teams.get', p.server, { params: { team_id: 'not-a-uuid' } }, 'SCHEMA_ERROR');
    await t.refuses('teams.list', p.server, { query: { user_id: 'nope' } }, 'SCHEMA_ERROR');
  });

  it('lets clients list only their own teams', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    const bob = await createCoreUser(t, p);
    await assert.rejects(t.core.invoke('teams.list', alice.client));
    await assert.rejects(t.core.invoke('teams.list', alice.client, { query: { user_id: bob.id } }));
    await t.refuses('teams.list', p.client, { query: { user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });

  it('gets, updates and deletes a team with the $update_team / $delete_team checks for clients', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    const bob = await createCoreUser(t, p);
    const team = await t.call<Team>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    await t.call('teams.addMember', p.server, { params: { team_id: team.id, user_id: bob.id }, body: {} });
    await t.call('users.updateCurrent', bob.client, { body: { selected_team_id: team.id } });

    // Bob is a plain member: team_member has no $update_team or $delete_team.
    const denied = await t.refuses(
      'teams.update',
      bob.client,
      { params: { team_id: team.id }, body: { display_name: 'Bob was here' } },
      'TEAM_PERMISSION_REQUIRED',
    );
    assert.deepEqual(denied.details, { team_id: team.id, user_id: bob.id, permission_id: '$update_team' });
    await t.refuses('teams.delete', bob.client, { params: { team_id: team.id } }, 'TEAM_PERMISSION_REQUIRED');

    const ok = await t.call<Team>('teams.update', alice.client, {
      params: { team_id: team.id },
      body: { display_name: 'Renamed', client_metadata: { x: 1 } },
    });
    assert.equal(ok.display_name, 'Renamed');
    await t.refuses('teams.update', alice.client, { params: { team_id: team.id }, body: { server_metadata: {} } }, 'SCHEMA_ERROR');
    const srv = await t.call<Team>('teams.update', p.server, { params: { team_id: team.id }, body: { server_metadata: { k: 'v' } } });
    assert.deepEqual(srv.server_metadata, { k: 'v' });
    assert.deepEqual(srv.client_metadata, { x: 1 });

    const stranger = await createCoreUser(t, p);
    await t.refuses('teams.get', stranger.client, { params: { team_id: team.id } }, 'TEAM_MEMBERSHIP_NOT_FOUND');
    await t.refuses('teams.get', p.server, { params: { team_id: MISSING } }, 'TEAM_NOT_FOUND');
    await t.refuses('teams.update', p.server, { params: { team_id: MISSING }, body: { display_name: 'x' } }, 'TEAM_NOT_FOUND');

    await t.call('teams.delete', alice.client, { params: { team_id: team.id } });
    await t.refuses('teams.delete', p.server, { params: { team_id: team.id } }, 'TEAM_NOT_FOUND');
    assert.equal((await t.call<{ selected_team_id: string | null }>('users.getCurrent', bob.client)).selected_team_id, null);
  });

  it('adds and removes members, with member defaults and $remove_members for clients', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    const bob = await createCoreUser(t, p);
    const carol = await createCoreUser(t, p);
    const team = await t.call<Team>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    const member = (user_id: string) => ({ params: { team_id: team.id, user_id }, body: {} });
    assert.deepEqual(await t.call('teams.addMember', p.server, member(bob.id)), { team_id: team.id, user_id: bob.id });
    await t.call('teams.addMember', p.server, member(carol.id));
    const bobPerms = await t.call<List<unknown>>('permissions.listTeam', p.server, {
      query: { team_id: team.id, user_id: bob.id, recursive: 'false' },
    });
    assert.deepEqual(bobPerms.items, [{ id: 'team_member', team_id: team.id, user_id: bob.id }]);

    await t.refuses('teams.addMember', p.server, member(bob.id), 'TEAM_MEMBERSHIP_ALREADY_EXISTS');
    await t.refuses('teams.addMember', p.server, { params: { team_id: MISSING, user_id: bob.id }, body: {} }, 'TEAM_NOT_FOUND');
    await t.refuses('teams.addMember', p.server, member(MISSING), 'USER_NOT_FOUND');
    await t.refuses('teams.addMember', bob.client, member(bob.id), 'INSUFFICIENT_ACCESS_TYPE');
    await t.refuses('teams.addMember', p.server, member('x'), 'SCHEMA_ERROR');

    // Bob lacks $remove_members; Alice (team_admin) has it; Carol may leave by herself.
    await t.refuses('teams.removeMember', bob.client, { params: { team_id: team.id, user_id: carol.id } }, 'TEAM_PERMISSION_REQUIRED');
    await t.call('teams.removeMember', alice.client, { params: { team_id: team.id, user_id: bob.id } });
    await t.call('teams.removeMember', carol.client, { params: { team_id: team.id, user_id: 'me' } });
    await t.refuses('teams.removeMember', p.server, { params: { team_id: team.id, user_id: bob.id } }, 'TEAM_MEMBERSHIP_NOT_FOUND');
    // Leaving drops the member's permissions.
    assert.deepEqual(
      (await t.call<List<unknown>>('permissions.listTeam', p.server, { query: { team_id: team.id, user_id: bob.id } })).items,
      [],
    );
  });

  it('lists, reads and updates member profiles; the server view carries the full user', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p, { display_name: 'Alice' });
    const bob = await createCoreUser(t, p, { display_name: 'Bob' });
    const team = await t.call<Team>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    await t.call('teams.addMember', p.server, { params: { team_id: team.id, user_id: bob.id }, body: {} });
    type Profile = { user_id: string; team_id: string; display_name: string; user?: { id: string; risk_scores: unknown } };

    const srv = await t.call<List<Profile>>('teams.listMemberProfiles', p.server, { query: { team_id: team.id } });
    assert.equal(srv.items.length, 2);
    const a = srv.items.find((i) => i.user_id === alice.id)!;
    assert.equal(a.display_name, 'Alice');
    assert.equal(a.user?.id, alice.id);
    assert.deepEqual(a.user?.risk_scores, { sign_up: { bot: 0, free_trial_abuse: 0 } });

    // Bob (team_member) has $read_members in a normal project.
    const cli = await t.call<List<Profile>>('teams.listMemberProfiles', bob.client, { query: { team_id: team.id } });
    assert.equal(cli.items.length, 2);
    assert.equal('user' in cli.items[0]!, false);
    const own = await t.call<List<Profile>>('teams.listMemberProfiles', bob.client, { query: { user_id: 'me' } });
    assert.deepEqual(
      own.items.map((i) => i.team_id),
      [team.id],
    );
    await assert.rejects(t.core.invoke('teams.listMemberProfiles', bob.client));

    const patched = await t.call('teams.updateMemberProfile', bob.client, {
      params: { team_id: team.id, user_id: 'me' },
      body: { display_name: 'Bobby' },
    });
    assert.deepEqual(patched, { team_id: team.id, user_id: bob.id, display_name: 'Bobby', profile_image_url: null });
    await assert.rejects(
      t.core.invoke('teams.updateMemberProfile', bob.client, {
        params: { team_id: team.id, user_id: alice.id },
        body: { display_name: 'X' },
      }),
    );
    assert.equal(
      (await t.call<Profile>('teams.getMemberProfile', alice.client, { params: { team_id: team.id, user_id: bob.id } })).display_name,
      'Bobby',
    );
    await t.refuses('teams.getMemberProfile', p.server, { params: { team_id: team.id, user_id: MISSING } }, 'TEAM_MEMBERSHIP_NOT_FOUND');
    await t.refuses(
      'teams.updateMemberProfile',
      p.server,
      { params: { team_id: team.id, user_id: MISSING }, body: {} },
      'TEAM_MEMBERSHIP_NOT_FOUND',
    );
    await t.refuses(
      'teams.updateMemberProfile',
      bob.client,
      { params: { team_id: team.id, user_id: 'me' }, body: { bad: 1 } },
      'SCHEMA_ERROR',
    );

    // Without $read_members, a stranger cannot read the team's profiles.
    const stranger = await createCoreUser(t, p);
    await t.refuses('teams.listMemberProfiles', stranger.client, { query: { team_id: team.id } }, 'TEAM_PERMISSION_REQUIRED');
    await t.refuses(
      'teams.getMemberProfile',
      stranger.client,
      { params: { team_id: team.id, user_id: alice.id } },
      'TEAM_PERMISSION_REQUIRED',
    );
  });

  it('gives a new internal user a personal team in which it is team_admin, with the internal definitions', async () => {
    const t = get();
    const owner = await createCoreInternalUser(t);
    const perms = await t.call<List<{ id: string }>>(
      'permissions.listTeam',
      { ...internalCredentials.client, accessToken: owner.accessToken },
      { query: { team_id: owner.selectedTeamId, user_id: 'me', recursive: 'true' } },
    );
    assert.deepEqual(
      perms.items.map((i) => i.id),
      ['$invite_members', '$read_members', '$remove_members', '$update_team', 'team_admin'],
    );
  });

  it('answers the user errors: no user for a client, and "me" without a user for the server', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    const team = await t.call<Team>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    const teamParams = { params: { team_id: team.id } };
    await t.refuses('teams.get', p.client, teamParams, 'USER_AUTHENTICATION_REQUIRED');
    await t.refuses('teams.update', p.client, { ...teamParams, body: { display_name: 'x' } }, 'USER_AUTHENTICATION_REQUIRED');
    await t.refuses('teams.delete', p.client, teamParams, 'USER_AUTHENTICATION_REQUIRED');
    await t.refuses('teams.removeMember', p.client, { params: { team_id: team.id, user_id: alice.id } }, 'USER_AUTHENTICATION_REQUIRED');
    await t.refuses('teams.listMemberProfiles', p.client, { query: { team_id: team.id } }, 'USER_AUTHENTICATION_REQUIRED');
    await t.refuses(
      'teams.getMemberProfile',
      p.client,
      { params: { team_id: team.id, user_id: alice.id } },
      'USER_AUTHENTICATION_REQUIRED',
    );
    const me = { params: { team_id: team.id, user_id: 'me' } };
    await t.refuses('teams.addMember', p.server, { ...me, body: {} }, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    await t.refuses('teams.removeMember', p.server, me, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    await t.refuses('teams.listMemberProfiles', p.server, { query: { user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    await t.refuses('teams.getMemberProfile', p.server, me, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    await t.refuses('teams.updateMemberProfile', p.server, { ...me, body: {} }, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    // The server acting for the token's user may use "me".
    const viaToken = await t.call<{ user_id: string }>('teams.getMemberProfile', { ...p.server, accessToken: alice.accessToken }, me);
    assert.equal(viaToken.user_id, alice.id);
  });

  it('pages, orders and searches the server team list', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const ids: string[] = [];
    for (const name of ['Apple', 'Banana', 'Cherry', 'Apricot']) {
      ids.push((await t.call<Team>('teams.create', p.server, { body: { display_name: name } })).id);
      t.clock.advance(1000);
    }
    const list = (query: Record<string, string>) => t.call<List<Team>>('teams.list', p.server, { query });
    const first = await list({ limit: '3' });
    assert.deepEqual(
      first.items.map((team) => team.id),
      ids.slice(0, 3),
    );
    assert.equal(first.is_paginated, true);
    assert.equal(first.pagination?.next_cursor, ids[3]);
    const rest = await list({ limit: '3', cursor: ids[3]! });
    assert.deepEqual(
      rest.items.map((team) => team.id),
      [ids[3]],
    );
    assert.equal(rest.pagination?.next_cursor, null);
    assert.deepEqual(
      (await list({ order_by: 'created_at', desc: 'true' })).items.map((team) => team.id),
      [...ids].reverse(),
    );
    assert.deepEqual(
      (await list({ query: 'ap' })).items.map((team) => team.display_name),
      ['Apple', 'Apricot'],
    );
    await t.refuses('teams.list', p.server, { query: { limit: '0' } }, 'SCHEMA_ERROR');
    await t.refuses('teams.list', p.server, { query: { order_by: 'name' } }, 'SCHEMA_ERROR');
  });
});
