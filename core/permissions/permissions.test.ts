import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { projectUser } from '../../test/helpers/project-user.ts';

const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';
const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((i) => i.id);

describeWithServer('permissions', (get) => {
  it('lists the default team definitions of a new project', async () => {
    const server = get();
    const p = await createProject(server);
    const res = await api(server, 'GET', '/team-permission-definitions', p.admin);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(ids(res), ['$delete_team', '$invite_members', '$manage_api_keys', '$read_members', '$remove_members', '$update_team', 'team_admin', 'team_member']);
    const admin = res.body.items.find((d: { id: string }) => d.id === 'team_admin');
    assert.deepEqual(admin.contained_permission_ids, ['$delete_team', '$invite_members', '$manage_api_keys', '$read_members', '$remove_members', '$update_team']);
    const member = res.body.items.find((d: { id: string }) => d.id === 'team_member');
    assert.deepEqual(member.contained_permission_ids, ['$invite_members', '$read_members']);
    assert.deepEqual((await api(server, 'GET', '/project-permission-definitions', p.admin)).body, { items: [], is_paginated: false });

    // The admin SDK's paginated form.
    const page = await api(server, 'GET', '/team-permission-definitions?limit=3', p.admin);
    assert.deepEqual(ids(page), ['$delete_team', '$invite_members', '$manage_api_keys']);
    assert.deepEqual(page.body.pagination, { next_cursor: '$read_members' });
    const next = await api(server, 'GET', '/team-permission-definitions?limit=10&cursor=$read_members', p.admin);
    assert.deepEqual(ids(next), ['$read_members', '$remove_members', '$update_team', 'team_admin', 'team_member']);
    assert.equal(next.body.pagination.next_cursor, null);
    assert.deepEqual(ids(await api(server, 'GET', '/team-permission-definitions?query=team_', p.admin)), ['team_admin', 'team_member']);
    assertKnownError(await api(server, 'GET', '/team-permission-definitions?limit=-1', p.admin), 'SCHEMA_ERROR', 400);
  });

  it('expands a three-level graph: recursive and flat lists, and a check through the closure', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T' })).body;
    await api(server, 'POST', `/team-memberships/${team.id}/${alice.id}`, p.server, {});
    await api(server, 'DELETE', `/team-permissions/${team.id}/${alice.id}/team_member`, p.server);

    const leaf = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'docs:read', description: 'Read docs', contained_permission_ids: ['$read_members'] });
    assert.equal(leaf.status, 201, leaf.text);
    assert.deepEqual(leaf.body, { id: 'docs:read', description: 'Read docs', contained_permission_ids: ['$read_members'] });
    assert.equal((await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'editor', contained_permission_ids: ['docs:read'] })).status, 201);
    const top = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'owner', contained_permission_ids: ['editor', '$update_team'] });
    assert.deepEqual(top.body, { id: 'owner', contained_permission_ids: ['$update_team', 'editor'] });

    const granted = await api(server, 'POST', `/team-permissions/${team.id}/${alice.id}/owner`, p.server, {});
    assert.equal(granted.status, 201, granted.text);
    assert.deepEqual(granted.body, { id: 'owner', user_id: alice.id, team_id: team.id });

    const recursive = await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=me&recursive=true`, alice.client);
    assert.deepEqual(ids(recursive), ['$read_members', '$update_team', 'docs:read', 'editor', 'owner']);
    assert.deepEqual(recursive.body.items[0], { id: '$read_members', team_id: team.id, user_id: alice.id });
    const flat = await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=me&recursive=false`, alice.client);
    assert.deepEqual(ids(flat), ['owner']);
    // Upstream's default is direct grants only.
    assert.deepEqual(ids(await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=me`, alice.client)), ['owner']);
    const filtered = await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=${alice.id}&permission_id=docs:read&recursive=true`, p.server);
    assert.deepEqual(ids(filtered), ['docs:read']);

    // $update_team reached through the graph lets Alice update the team as a client.
    assert.equal((await api(server, 'PATCH', `/teams/${team.id}`, alice.client, { display_name: 'Mine' })).status, 200);

    // Changing the middle definition changes what the top implies.
    const patched = await api(server, 'PATCH', '/team-permission-definitions/editor', p.admin, { contained_permission_ids: [] });
    assert.deepEqual(patched.body, { id: 'editor', contained_permission_ids: [] });
    assert.deepEqual(ids(await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=me&recursive=true`, alice.client)), ['$update_team', 'editor', 'owner']);

    // Renaming moves the grant.
    const renamed = await api(server, 'PATCH', '/team-permission-definitions/owner', p.admin, { id: 'boss', description: 'The boss' });
    assert.deepEqual(renamed.body, { id: 'boss', description: 'The boss', contained_permission_ids: ['$update_team', 'editor'] });
    assert.deepEqual(ids(await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=me&recursive=false`, alice.client)), ['boss']);

    // Deleting removes grants.
    assert.deepEqual((await api(server, 'DELETE', '/team-permission-definitions/boss', p.admin)).body, { success: true });
    assert.deepEqual(ids(await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=me&recursive=true`, alice.client)), []);
  });

  it('rejects cycles, duplicate ids, missing contained permissions and bad ids', async () => {
    const server = get();
    const p = await createProject(server);
    await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'a' });
    await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'b', contained_permission_ids: ['a'] });
    const cycle = await api(server, 'PATCH', '/team-permission-definitions/a', p.admin, { contained_permission_ids: ['b'] });
    assert.equal(cycle.status, 400);
    assert.match(cycle.text, /a → b → a/);
    const self = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'c', contained_permission_ids: ['c'] });
    assertKnownError(self, 'CONTAINED_PERMISSION_NOT_FOUND', 400);

    const dup = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'a' });
    assertKnownError(dup, 'PERMISSION_ID_ALREADY_EXISTS', 400);
    assert.deepEqual(dup.body.details, { permission_id: 'a' });
    assertKnownError(await api(server, 'POST', '/project-permission-definitions', p.admin, { id: 'a' }), 'PERMISSION_ID_ALREADY_EXISTS', 400);
    assertKnownError(await api(server, 'POST', '/team-permission-definitions', p.admin, { id: '$update_team' }), 'PERMISSION_ID_ALREADY_EXISTS', 400);
    assertKnownError(await api(server, 'PATCH', '/team-permission-definitions/b', p.admin, { id: 'a' }), 'PERMISSION_ID_ALREADY_EXISTS', 400);
    const missing = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'd', contained_permission_ids: ['nope'] });
    assertKnownError(missing, 'CONTAINED_PERMISSION_NOT_FOUND', 400);
    assert.deepEqual(missing.body.details, { permission_id: 'nope' });
    // Project definitions cannot contain team ones.
    assertKnownError(await api(server, 'POST', '/project-permission-definitions', p.admin, { id: 'p1', contained_permission_ids: ['a'] }), 'CONTAINED_PERMISSION_NOT_FOUND', 400);
    assertKnownError(await api(server, 'PATCH', '/team-permission-definitions/zzz', p.admin, { description: 'x' }), 'PERMISSION_NOT_FOUND', 404);
    assertKnownError(await api(server, 'DELETE', '/team-permission-definitions/zzz', p.admin), 'PERMISSION_NOT_FOUND', 404);
    assertKnownError(await api(server, 'DELETE', '/project-permission-definitions/a', p.admin), 'PERMISSION_NOT_FOUND', 404);

    const upper = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'Bad' });
    assertKnownError(upper, 'SCHEMA_ERROR', 400);
    assert.match(upper.body.error, /Only lowercase letters, numbers, ":", "_" and optional "\$" at the beginning are allowed/);
    const sys = await api(server, 'POST', '/team-permission-definitions', p.admin, { id: '$nope' });
    assertKnownError(sys, 'SCHEMA_ERROR', 400);
    assert.match(sys.body.error, /Invalid system permission/);
    assertKnownError(await api(server, 'POST', '/team-permission-definitions', p.admin, { id: 'ok', extra: true }), 'SCHEMA_ERROR', 400);
  });

  it('allows definitions only to admins', async () => {
    const server = get();
    const p = await createProject(server);
    for (const caller of [p.client, p.server]) {
      assertKnownError(await api(server, 'GET', '/team-permission-definitions', caller), 'INSUFFICIENT_ACCESS_TYPE', 401);
      assertKnownError(await api(server, 'POST', '/project-permission-definitions', caller, { id: 'x' }), 'INSUFFICIENT_ACCESS_TYPE', 401);
      assertKnownError(await api(server, 'PATCH', '/team-permission-definitions/team_admin', caller, {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
      assertKnownError(await api(server, 'DELETE', '/project-permission-definitions/x', caller), 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
  });

  it('grants and revokes team permissions with their errors', async () => {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p);
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id })).body;
    await api(server, 'POST', '/project-permission-definitions', p.admin, { id: 'billing' });

    assertKnownError(await api(server, 'POST', `/team-permissions/${team.id}/${alice.id}/nope`, p.server, {}), 'PERMISSION_NOT_FOUND', 404);
    const scope = await api(server, 'POST', `/team-permissions/${team.id}/${alice.id}/billing`, p.server, {});
    assertKnownError(scope, 'WRONG_PERMISSION_SCOPE', 404);
    assert.deepEqual(scope.body.details, { permission_id: 'billing', expected_scope: 'team', actual_scope: 'project' });
    assertKnownError(await api(server, 'POST', `/team-permissions/${MISSING}/${alice.id}/team_member`, p.server, {}), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', `/team-permissions/${team.id}/${alice.id}/team_member`, alice.client, {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'POST', `/team-permissions/${team.id}/${alice.id}/Bad`, p.server, {}), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', `/team-permissions/${team.id}/me/team_member`, p.server, {}), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);

    // Granting twice is harmless; revoking a permission not held directly is TEAM_PERMISSION_NOT_FOUND.
    assert.equal((await api(server, 'POST', `/team-permissions/${team.id}/${alice.id}/$read_members`, p.server, {})).status, 201);
    assert.equal((await api(server, 'POST', `/team-permissions/${team.id}/${alice.id}/$read_members`, p.admin, {})).status, 201);
    assert.deepEqual((await api(server, 'DELETE', `/team-permissions/${team.id}/${alice.id}/$read_members`, p.server)).body, { success: true });
    const notHeld = await api(server, 'DELETE', `/team-permissions/${team.id}/${alice.id}/$read_members`, p.server);
    assertKnownError(notHeld, 'TEAM_PERMISSION_NOT_FOUND', 401);
    assertKnownError(await api(server, 'DELETE', `/team-permissions/${team.id}/${alice.id}/nope`, p.server), 'PERMISSION_NOT_FOUND', 404);
    assertKnownError(await api(server, 'DELETE', `/team-permissions/${team.id}/${alice.id}/billing`, p.server), 'WRONG_PERMISSION_SCOPE', 404);
    assertKnownError(await api(server, 'DELETE', `/team-permissions/${team.id}/${alice.id}/team_admin`, alice.client), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'DELETE', `/team-permissions/${team.id}/me/team_admin`, p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);

    // Clients list only their own permissions.
    assert.equal((await api(server, 'GET', `/team-permissions?team_id=${team.id}`, alice.client)).status, 403);
    assertKnownError(await api(server, 'GET', '/team-permissions?user_id=me', p.client), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'GET', '/team-permissions?recursive=yes', p.server), 'SCHEMA_ERROR', 400);
  });

  it('grants, lists and revokes project permissions, with user defaults', async () => {
    const server = get();
    const p = await createProject(server);
    await api(server, 'POST', '/project-permission-definitions', p.admin, { id: 'read' });
    assert.equal((await api(server, 'POST', '/project-permission-definitions', p.admin, { id: 'write', contained_permission_ids: ['read'] })).status, 201);
    await api(server, 'PATCH', '/internal/projects/current', p.admin, { config: { user_default_permissions: [{ id: 'read' }] } });
    const alice = await projectUser(server, p);
    assert.deepEqual(ids(await api(server, 'GET', '/project-permissions?user_id=me', alice.client)), ['read']);

    const granted = await api(server, 'POST', `/project-permissions/${alice.id}/write`, p.server, {});
    assert.equal(granted.status, 201, granted.text);
    assert.deepEqual(granted.body, { id: 'write', user_id: alice.id });
    const all = await api(server, 'GET', `/project-permissions?user_id=${alice.id}`, p.server);
    assert.deepEqual(all.body.items, [{ id: 'read', user_id: alice.id }, { id: 'write', user_id: alice.id }]);
    await api(server, 'DELETE', `/project-permissions/${alice.id}/read`, p.server);
    assert.deepEqual(ids(await api(server, 'GET', `/project-permissions?user_id=${alice.id}&recursive=false`, p.server)), ['write']);
    assert.deepEqual(ids(await api(server, 'GET', `/project-permissions?user_id=${alice.id}`, p.server)), ['write'], 'direct grants by default, as upstream');
    assert.deepEqual(ids(await api(server, 'GET', `/project-permissions?user_id=${alice.id}&recursive=true`, p.server)), ['read', 'write']);

    assertKnownError(await api(server, 'POST', `/project-permissions/${MISSING}/write`, p.server, {}), 'USER_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', `/project-permissions/${alice.id}/nope`, p.server, {}), 'PERMISSION_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', `/project-permissions/${alice.id}/team_admin`, p.server, {}), 'WRONG_PERMISSION_SCOPE', 404);
    assertKnownError(await api(server, 'POST', `/project-permissions/me/write`, p.server, {}), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'POST', `/project-permissions/${alice.id}/write`, alice.client, {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
    const notHeld = await api(server, 'DELETE', `/project-permissions/${alice.id}/read`, p.server);
    assertKnownError(notHeld, 'PROJECT_PERMISSION_REQUIRED', 401);
    assert.deepEqual(notHeld.body.details, { user_id: alice.id, permission_id: 'read' });
    assertKnownError(await api(server, 'DELETE', `/project-permissions/${alice.id}/nope`, p.server), 'PERMISSION_NOT_FOUND', 404);
    assertKnownError(await api(server, 'DELETE', `/project-permissions/${alice.id}/$read_members`, p.server), 'WRONG_PERMISSION_SCOPE', 404);
    assertKnownError(await api(server, 'DELETE', `/project-permissions/${alice.id}/write`, alice.client), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'DELETE', `/project-permissions/me/write`, p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assert.equal((await api(server, 'GET', '/project-permissions', alice.client)).status, 403);
    assertKnownError(await api(server, 'GET', '/project-permissions?user_id=me', p.client), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'GET', '/project-permissions?extra=1', p.server), 'SCHEMA_ERROR', 400);
  });
  it('keeps the default-permission lists in step when a definition is renamed or deleted', async () => {
    const server = get();
    const p = await createProject(server);
    assert.equal((await api(server, 'PATCH', '/team-permission-definitions/team_admin', p.admin, { id: 'team_owner' })).status, 200);
    assert.deepEqual((await api(server, 'DELETE', '/team-permission-definitions/team_member', p.admin)).body, { success: true });
    const config = (await api(server, 'GET', '/internal/projects/current', p.admin)).body.config;
    assert.deepEqual(config.team_creator_default_permissions, [{ id: 'team_owner' }]);
    assert.deepEqual(config.team_member_default_permissions, []);
    const alice = await projectUser(server, p);
    const bob = await projectUser(server, p);
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T', creator_user_id: alice.id })).body;
    await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, p.server, {});
    assert.deepEqual(ids(await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=${alice.id}&recursive=false`, p.server)), ['team_owner']);
    assert.deepEqual(ids(await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=${bob.id}`, p.server)), []);
  });
});
