import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createInternalUser, createProject, internal } from '../../test/helpers/api.ts';
import { projectUser } from '../../test/helpers/project-user.ts';

const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

describeWithServer('teams', (get) => {
  it('lets a client create a team as itself when client team creation is enabled, and makes it team_admin', async () => {
    const server = get();
    const p = await createProject(server, { client_team_creation_enabled: true });
    const alice = await projectUser(server, p, { display_name: 'Alice' });
    const created = await api(server, 'POST', '/teams', alice.client, { display_name: 'Alpha', creator_user_id: 'me', client_metadata: { a: 1 } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ['client_metadata', 'client_read_only_metadata', 'display_name', 'id', 'profile_image_url']);
    assert.deepEqual(created.body.client_metadata, { a: 1 });

    const mine = await api(server, 'GET', '/teams?user_id=me', alice.client);
    assert.deepEqual(mine.body.items.map((t: { id: string }) => t.id), [created.body.id]);
    assert.equal(mine.body.is_paginated, false);

    // Upstream lists direct grants unless recursive=true (issue 14 item 5): a creator has [team_admin].
    const direct = await api(server, 'GET', `/team-permissions?team_id=${created.body.id}&user_id=me`, alice.client);
    assert.deepEqual(direct.body, { items: [{ id: 'team_admin', team_id: created.body.id, user_id: alice.id }], is_paginated: false });
    const perms = await api(server, 'GET', `/team-permissions?team_id=${created.body.id}&user_id=me&recursive=true`, alice.client);
    const ids = perms.body.items.map((i: { id: string }) => i.id);
    assert.deepEqual(ids, ['$delete_team', '$invite_members', '$manage_api_keys', '$read_members', '$remove_members', '$update_team', 'team_admin']);

    const one = await api(server, 'GET', `/teams/${created.body.id}`, alice.client);
    assert.equal(one.body.display_name, 'Alpha');
  });

  it('refuses client team creation when disabled (403 text), as another user (403 text), and without a user', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const disabled = await api(server, 'POST', '/teams', alice.client, { display_name: 'X', creator_user_id: 'me' });
    assert.equal(disabled.status, 403);
    assert.match(disabled.text, /Client team creation is disabled/);

    await api(server, 'PATCH', '/internal/projects/current', p.admin, { config: { client_team_creation_enabled: true } });
    const bob = await projectUser(server, p);
    const asOther = await api(server, 'POST', '/teams', alice.client, { display_name: 'X', creator_user_id: bob.id });
    assert.equal(asOther.status, 403);
    assertKnownError(await api(server, 'POST', '/teams', p.client, { display_name: 'X', creator_user_id: 'me' }), 'USER_AUTHENTICATION_REQUIRED', 401);
  });

  it('creates teams on the server with server fields, lists all teams, and honours add_current_user', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const res = await api(server, 'POST', '/teams', p.server, { display_name: 'Srv', server_metadata: { s: true }, client_read_only_metadata: { r: 1 }, creator_user_id: alice.id });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.server_metadata, { s: true });
    assert.equal(typeof res.body.created_at_millis, 'number');
    server.clock.advance(1000);
    const noCreator = await api(server, 'POST', '/teams', p.server, { display_name: 'Empty' });
    assert.equal(noCreator.status, 201);
    const all = await api(server, 'GET', '/teams', p.server);
    assert.deepEqual(all.body.items.map((t: { display_name: string }) => t.display_name), ['Srv', 'Empty']);
    const ofAlice = await api(server, 'GET', `/teams?user_id=${alice.id}`, p.server);
    assert.deepEqual(ofAlice.body.items.map((t: { id: string }) => t.id), [res.body.id]);

    const viaToken = await api(server, 'POST', '/teams?add_current_user=true', { ...p.server, accessToken: alice.accessToken }, { display_name: 'Deprecated' });
    assert.equal(viaToken.status, 201, viaToken.text);
    const members = await api(server, 'GET', `/team-member-profiles?team_id=${viaToken.body.id}`, p.server);
    assert.deepEqual(members.body.items.map((m: { user_id: string }) => m.user_id), [alice.id]);

    assertKnownError(await api(server, 'POST', '/teams', p.server, { display_name: 'X', creator_user_id: MISSING }), 'USER_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/teams', p.server, { display_name: 'X', creator_user_id: 'me' }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });

  it('rejects bad input with SCHEMA_ERROR', async () => {
    const server = get();
    const p = await createProject(server, { client_team_creation_enabled: true });
    const alice = await projectUser(server, p);
    assertKnownError(await api(server, 'POST', '/teams', p.server, {}), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/teams', p.server, { display_name: 'X', extra: 1 }), 'SCHEMA_ERROR', 400);
    // A client may not set server-only fields.
    assertKnownError(await api(server, 'POST', '/teams', alice.client, { display_name: 'X', creator_user_id: 'me', server_metadata: {} }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/teams/not-a-uuid', p.server), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/teams?user_id=nope', p.server), 'SCHEMA_ERROR', 400);
  });

  it('lets clients list only their own teams', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const bob = await projectUser(server, p);
    const all = await api(server, 'GET', '/teams', alice.client);
    assert.equal(all.status, 403);
    const other = await api(server, 'GET', `/teams?user_id=${bob.id}`, alice.client);
    assert.equal(other.status, 403);
    assertKnownError(await api(server, 'GET', '/teams?user_id=me', p.client), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });

  it('gets, updates and deletes a team with the $update_team / $delete_team checks for clients', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const bob = await projectUser(server, p);
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id })).body;
    assert.equal((await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, p.server, {})).status, 201);
    await api(server, 'PATCH', '/users/me', bob.client, { selected_team_id: team.id });

    // Bob is a plain member: team_member has no $update_team or $delete_team.
    const denied = await api(server, 'PATCH', `/teams/${team.id}`, bob.client, { display_name: 'Bob was here' });
    assertKnownError(denied, 'TEAM_PERMISSION_REQUIRED', 401);
    assert.deepEqual(denied.body.details, { team_id: team.id, user_id: bob.id, permission_id: '$update_team' });
    assertKnownError(await api(server, 'DELETE', `/teams/${team.id}`, bob.client), 'TEAM_PERMISSION_REQUIRED', 401);

    const ok = await api(server, 'PATCH', `/teams/${team.id}`, alice.client, { display_name: 'Renamed', client_metadata: { x: 1 } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.display_name, 'Renamed');
    assertKnownError(await api(server, 'PATCH', `/teams/${team.id}`, alice.client, { server_metadata: {} }), 'SCHEMA_ERROR', 400);
    const srv = await api(server, 'PATCH', `/teams/${team.id}`, p.server, { server_metadata: { k: 'v' } });
    assert.deepEqual(srv.body.server_metadata, { k: 'v' });
    assert.deepEqual(srv.body.client_metadata, { x: 1 });

    const stranger = await projectUser(server, p);
    assertKnownError(await api(server, 'GET', `/teams/${team.id}`, stranger.client), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    assertKnownError(await api(server, 'GET', `/teams/${MISSING}`, p.server), 'TEAM_NOT_FOUND', 404);
    assertKnownError(await api(server, 'PATCH', `/teams/${MISSING}`, p.server, { display_name: 'x' }), 'TEAM_NOT_FOUND', 404);

    const del = await api(server, 'DELETE', `/teams/${team.id}`, alice.client);
    assert.deepEqual(del.body, { success: true });
    assertKnownError(await api(server, 'DELETE', `/teams/${team.id}`, p.server), 'TEAM_NOT_FOUND', 404);
    const bobNow = await api(server, 'GET', '/users/me', bob.client);
    assert.equal(bobNow.body.selected_team_id, null);
  });

  it('adds and removes members, with member defaults and $remove_members for clients', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const bob = await projectUser(server, p);
    const carol = await projectUser(server, p);
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id })).body;
    const added = await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, p.server, {});
    assert.equal(added.status, 201);
    assert.deepEqual(added.body, { team_id: team.id, user_id: bob.id });
    await api(server, 'POST', `/team-memberships/${team.id}/${carol.id}`, p.server, {});
    const bobPerms = await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=${bob.id}&recursive=false`, p.server);
    assert.deepEqual(bobPerms.body.items, [{ id: 'team_member', team_id: team.id, user_id: bob.id }]);

    assertKnownError(await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, p.server, {}), 'TEAM_MEMBERSHIP_ALREADY_EXISTS', 409);
    assertKnownError(await api(server, 'POST', `/team-memberships/${MISSING}/${bob.id}`, p.server, {}), 'TEAM_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', `/team-memberships/${team.id}/${MISSING}`, p.server, {}), 'USER_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, bob.client, {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'POST', `/team-memberships/${team.id}/x`, p.server, {}), 'SCHEMA_ERROR', 400);

    // Bob lacks $remove_members; Alice (team_admin) has it; Carol may leave by herself.
    assertKnownError(await api(server, 'DELETE', `/team-memberships/${team.id}/${carol.id}`, bob.client), 'TEAM_PERMISSION_REQUIRED', 401);
    assert.deepEqual((await api(server, 'DELETE', `/team-memberships/${team.id}/${bob.id}`, alice.client)).body, { success: true });
    assert.deepEqual((await api(server, 'DELETE', `/team-memberships/${team.id}/me`, carol.client)).body, { success: true });
    assertKnownError(await api(server, 'DELETE', `/team-memberships/${team.id}/${bob.id}`, p.server), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    // Leaving drops the member's permissions.
    const after = await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=${bob.id}`, p.server);
    assert.deepEqual(after.body.items, []);
  });

  it('lists, reads and updates member profiles; the server view carries the full user', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p, { display_name: 'Alice' });
    const bob = await projectUser(server, p, { display_name: 'Bob' });
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id })).body;
    await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, p.server, {});

    const srv = await api(server, 'GET', `/team-member-profiles?team_id=${team.id}`, p.server);
    assert.equal(srv.body.items.length, 2);
    const a = srv.body.items.find((i: { user_id: string }) => i.user_id === alice.id);
    assert.equal(a.display_name, 'Alice');
    assert.equal(a.user.id, alice.id);
    assert.deepEqual(a.user.risk_scores, { sign_up: { bot: 0, free_trial_abuse: 0 } });

    // Bob (team_member) has $read_members in a normal project.
    const cli = await api(server, 'GET', `/team-member-profiles?team_id=${team.id}`, bob.client);
    assert.equal(cli.body.items.length, 2);
    assert.equal('user' in cli.body.items[0], false);
    const own = await api(server, 'GET', '/team-member-profiles?user_id=me', bob.client);
    assert.deepEqual(own.body.items.map((i: { team_id: string }) => i.team_id), [team.id]);
    assert.equal((await api(server, 'GET', '/team-member-profiles', bob.client)).status, 403);

    const patched = await api(server, 'PATCH', `/team-member-profiles/${team.id}/me`, bob.client, { display_name: 'Bobby' });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body, { team_id: team.id, user_id: bob.id, display_name: 'Bobby', profile_image_url: null });
    assert.equal((await api(server, 'PATCH', `/team-member-profiles/${team.id}/${alice.id}`, bob.client, { display_name: 'X' })).status, 403);
    const read = await api(server, 'GET', `/team-member-profiles/${team.id}/${bob.id}`, alice.client);
    assert.equal(read.body.display_name, 'Bobby');
    assertKnownError(await api(server, 'GET', `/team-member-profiles/${team.id}/${MISSING}`, p.server), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    assertKnownError(await api(server, 'PATCH', `/team-member-profiles/${team.id}/${MISSING}`, p.server, {}), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    assertKnownError(await api(server, 'PATCH', `/team-member-profiles/${team.id}/me`, bob.client, { bad: 1 }), 'SCHEMA_ERROR', 400);

    // Without $read_members, a stranger cannot read the team's profiles.
    const stranger = await projectUser(server, p);
    assertKnownError(await api(server, 'GET', `/team-member-profiles?team_id=${team.id}`, stranger.client), 'TEAM_PERMISSION_REQUIRED', 401);
    assertKnownError(await api(server, 'GET', `/team-member-profiles/${team.id}/${alice.id}`, stranger.client), 'TEAM_PERMISSION_REQUIRED', 401);
  });

  it('gives a new internal user a personal team in which it is team_admin, with the internal definitions', async () => {
    const server = get();
    const owner = await createInternalUser(server);
    const perms = await api(server, 'GET', `/team-permissions?team_id=${owner.selectedTeamId}&user_id=me&recursive=true`, { ...internal.client, accessToken: owner.accessToken });
    assert.deepEqual(perms.body.items.map((i: { id: string }) => i.id), ['$invite_members', '$read_members', '$remove_members', '$update_team', 'team_admin']);
  });
  it('answers the user errors: no user for a client, and "me" without a user for the server', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id })).body;
    assertKnownError(await api(server, 'GET', `/teams/${team.id}`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'PATCH', `/teams/${team.id}`, p.client, { display_name: 'x' }), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'DELETE', `/teams/${team.id}`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'DELETE', `/team-memberships/${team.id}/${alice.id}`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'GET', `/team-member-profiles?team_id=${team.id}`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'GET', `/team-member-profiles/${team.id}/${alice.id}`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'POST', `/team-memberships/${team.id}/me`, p.server, {}), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'DELETE', `/team-memberships/${team.id}/me`, p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'GET', '/team-member-profiles?user_id=me', p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'GET', `/team-member-profiles/${team.id}/me`, p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'PATCH', `/team-member-profiles/${team.id}/me`, p.server, {}), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    // The server acting for the token's user may use "me".
    const viaToken = await api(server, 'GET', `/team-member-profiles/${team.id}/me`, { ...p.server, accessToken: alice.accessToken });
    assert.equal(viaToken.body.user_id, alice.id);
  });
  it('pages, orders and searches the server team list', async () => {
    const server = get();
    const p = await createProject(server);
    const ids: string[] = [];
    for (const name of ['Apple', 'Banana', 'Cherry', 'Apricot']) {
      ids.push((await api(server, 'POST', '/teams', p.server, { display_name: name })).body.id);
      server.clock.advance(1000);
    }
    const first = await api(server, 'GET', '/teams?limit=3', p.server);
    assert.deepEqual(first.body.items.map((t: { id: string }) => t.id), ids.slice(0, 3));
    assert.equal(first.body.is_paginated, true);
    assert.equal(first.body.pagination.next_cursor, ids[3]);
    const rest = await api(server, 'GET', `/teams?limit=3&cursor=${ids[3]}`, p.server);
    assert.deepEqual(rest.body.items.map((t: { id: string }) => t.id), [ids[3]]);
    assert.equal(rest.body.pagination.next_cursor, null);
    const desc = await api(server, 'GET', '/teams?order_by=created_at&desc=true', p.server);
    assert.deepEqual(desc.body.items.map((t: { id: string }) => t.id), [...ids].reverse());
    const search = await api(server, 'GET', '/teams?query=ap', p.server);
    assert.deepEqual(search.body.items.map((t: { display_name: string }) => t.display_name), ['Apple', 'Apricot']);
    assertKnownError(await api(server, 'GET', '/teams?limit=0', p.server), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/teams?order_by=name', p.server), 'SCHEMA_ERROR', 400);
  });
});
