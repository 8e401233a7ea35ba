import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, createCoreUser, describeWithCore } from '../../test/helpers/core-client.ts';
import { refusal } from '../../test/helpers/core-fixtures-b.ts';

const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';
const ids = (list: { items: Array<{ id: string }> }) => list.items.map((i) => i.id);

/**
 * Permissions, in-process (test/helpers/core-client.ts). Grants and definitions created here are
 * `created` operations (201 on the wire): the last test checks the flags.
 */

describeWithCore('permissions', (get) => {
  it('lists the default team definitions of a new project', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const res = await t.call<any>('permissions.listTeamDefinitions', p.admin);
    assert.deepEqual(ids(res), [
      '$delete_team',
      '$invite_members',
      '$manage_api_keys',
      '$manage_sso',
      '$read_members',
      '$remove_members',
      '$update_team',
      'team_admin',
      'team_member',
    ]);
    const admin = res.items.find((d: { id: string }) => d.id === 'team_admin');
    assert.deepEqual(admin.contained_permission_ids, [
      '$delete_team',
      '$invite_members',
      '$manage_api_keys',
      '$manage_sso',
      '$read_members',
      '$remove_members',
      '$update_team',
    ]);
    const member = res.items.find((d: { id: string }) => d.id === 'team_member');
    assert.deepEqual(member.contained_permission_ids, ['$invite_members', '$read_members']);
    assert.deepEqual(await t.call<any>('permissions.listProjectDefinitions', p.admin), { items: [], is_paginated: false });

    // The admin SDK's paginated form.
    const page = await t.call<any>('permissions.listTeamDefinitions', p.admin, { query: { limit: '3' } });
    assert.deepEqual(ids(page), ['$delete_team', '$invite_members', '$manage_api_keys']);
    assert.deepEqual(page.pagination, { next_cursor: '$manage_sso' });
    const next = await t.call<any>('permissions.listTeamDefinitions', p.admin, { query: { limit: '10', cursor: '$manage_sso' } });
    assert.deepEqual(ids(next), ['$manage_sso', '$read_members', '$remove_members', '$update_team', 'team_admin', 'team_member']);
    assert.equal(next.pagination.next_cursor, null);
    assert.deepEqual(ids(await t.call<any>('permissions.listTeamDefinitions', p.admin, { query: { query: 'team_' } })), [
      'team_admin',
      'team_member',
    ]);
    assert.equal((await t.refuses('permissions.listTeamDefinitions', p.admin, { query: { limit: '-1' } }, 'SCHEMA_ERROR')).status, 400);
  });

  it('expands a three-level graph: recursive and flat lists, and a check through the closure', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    const team = await t.call<any>('teams.create', p.server, { body: { display_name: 'T' } });
    await t.call<any>('teams.addMember', p.server, { params: { team_id: team.id, user_id: alice.id }, body: {} });
    await t.call<any>('permissions.revokeTeam', p.server, {
      params: { team_id: team.id, user_id: alice.id, permission_id: 'team_member' },
    });

    const leaf = await t.call<any>('permissions.createTeamDefinition', p.admin, {
      body: { id: 'docs:read', description: 'Read docs', contained_permission_ids: ['$read_members'] },
    });
    assert.deepEqual(leaf, { id: 'docs:read', description: 'Read docs', contained_permission_ids: ['$read_members'] });
    assert.ok(
      await t.call<any>('permissions.createTeamDefinition', p.admin, { body: { id: 'editor', contained_permission_ids: ['docs:read'] } }),
    );
    const top = await t.call<any>('permissions.createTeamDefinition', p.admin, {
      body: { id: 'owner', contained_permission_ids: ['editor', '$update_team'] },
    });
    assert.deepEqual(top, { id: 'owner', contained_permission_ids: ['$update_team', 'editor'] });

    const granted = await t.call<any>('permissions.grantTeam', p.server, {
      params: { team_id: team.id, user_id: alice.id, permission_id: 'owner' },
      body: {},
    });
    assert.deepEqual(granted, { id: 'owner', user_id: alice.id, team_id: team.id });

    const recursive = await t.call<any>('permissions.listTeam', alice.client, {
      query: { team_id: team.id, user_id: 'me', recursive: 'true' },
    });
    assert.deepEqual(ids(recursive), ['$read_members', '$update_team', 'docs:read', 'editor', 'owner']);
    assert.deepEqual(recursive.items[0], { id: '$read_members', team_id: team.id, user_id: alice.id });
    const flat = await t.call<any>('permissions.listTeam', alice.client, {
      query: { team_id: team.id, user_id: 'me', recursive: 'false' },
    });
    assert.deepEqual(ids(flat), ['owner']);
    // Upstream's default is direct grants only.
    assert.deepEqual(ids(await t.call<any>('permissions.listTeam', alice.client, { query: { team_id: team.id, user_id: 'me' } })), [
      'owner',
    ]);
    const filtered = await t.call<any>('permissions.listTeam', p.server, {
      query: { team_id: team.id, user_id: alice.id, permission_id: 'docs:read', recursive: 'true' },
    });
    assert.deepEqual(ids(filtered), ['docs:read']);

    // $update_team reached through the graph lets Alice update the team as a client.
    assert.ok(await t.call<any>('teams.update', alice.client, { params: { team_id: team.id }, body: { display_name: 'Mine' } }));

    // Changing the middle definition changes what the top implies.
    const patched = await t.call<any>('permissions.updateTeamDefinition', p.admin, {
      params: { permission_id: 'editor' },
      body: { contained_permission_ids: [] },
    });
    assert.deepEqual(patched, { id: 'editor', contained_permission_ids: [] });
    assert.deepEqual(
      ids(await t.call<any>('permissions.listTeam', alice.client, { query: { team_id: team.id, user_id: 'me', recursive: 'true' } })),
      ['$update_team', 'editor', 'owner'],
    );

    // Renaming moves the grant.
    const renamed = await t.call<any>('permissions.updateTeamDefinition', p.admin, {
      params: { permission_id: 'owner' },
      body: { id: 'boss', description: 'The boss' },
    });
    assert.deepEqual(renamed, { id: 'boss', description: 'The boss', contained_permission_ids: ['$update_team', 'editor'] });
    assert.deepEqual(
      ids(await t.call<any>('permissions.listTeam', alice.client, { query: { team_id: team.id, user_id: 'me', recursive: 'false' } })),
      ['boss'],
    );

    // Deleting removes grants.
    assert.deepEqual(await t.call<any>('permissions.deleteTeamDefinition', p.admin, { params: { permission_id: 'boss' } }), {
      success: true,
    });
    assert.deepEqual(
      ids(await t.call<any>('permissions.listTeam', alice.client, { query: { team_id: team.id, user_id: 'me', recursive: 'true' } })),
      [],
    );
  });

  it('rejects cycles, duplicate ids, missing contained permissions and bad ids', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await t.call<any>('permissions.createTeamDefinition', p.admin, { body: { id: 'a' } });
    await t.call<any>('permissions.createTeamDefinition', p.admin, { body: { id: 'b', contained_permission_ids: ['a'] } });
    const cycle = await t.core
      .invoke('permissions.updateTeamDefinition', p.admin, { params: { permission_id: 'a' }, body: { contained_permission_ids: ['b'] } })
      .then(
        () => null,
        (error: Error & { kind?: string }) => error,
      );
    assert.equal(cycle?.kind, 'bad-request', String(cycle));
    assert.match(cycle!.message, /a → b → a/);
    const self = await t.refuses(
      'permissions.createTeamDefinition',
      p.admin,
      { body: { id: 'c', contained_permission_ids: ['c'] } },
      'CONTAINED_PERMISSION_NOT_FOUND',
    );
    assert.equal(self.status, 400);

    const dup = await t.refuses('permissions.createTeamDefinition', p.admin, { body: { id: 'a' } }, 'PERMISSION_ID_ALREADY_EXISTS');
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.details, { permission_id: 'a' });
    assert.equal(
      (await t.refuses('permissions.createProjectDefinition', p.admin, { body: { id: 'a' } }, 'PERMISSION_ID_ALREADY_EXISTS')).status,
      400,
    );
    assert.equal(
      (await t.refuses('permissions.createTeamDefinition', p.admin, { body: { id: '$update_team' } }, 'PERMISSION_ID_ALREADY_EXISTS'))
        .status,
      400,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.updateTeamDefinition',
          p.admin,
          { params: { permission_id: 'b' }, body: { id: 'a' } },
          'PERMISSION_ID_ALREADY_EXISTS',
        )
      ).status,
      400,
    );
    const missing = await t.refuses(
      'permissions.createTeamDefinition',
      p.admin,
      { body: { id: 'd', contained_permission_ids: ['nope'] } },
      'CONTAINED_PERMISSION_NOT_FOUND',
    );
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.details, { permission_id: 'nope' });
    // Project definitions cannot contain team ones.
    assert.equal(
      (
        await t.refuses(
          'permissions.createProjectDefinition',
          p.admin,
          { body: { id: 'p1', contained_permission_ids: ['a'] } },
          'CONTAINED_PERMISSION_NOT_FOUND',
        )
      ).status,
      400,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.updateTeamDefinition',
          p.admin,
          { params: { permission_id: 'zzz' }, body: { description: 'x' } },
          'PERMISSION_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      (await t.refuses('permissions.deleteTeamDefinition', p.admin, { params: { permission_id: 'zzz' } }, 'PERMISSION_NOT_FOUND')).status,
      404,
    );
    assert.equal(
      (await t.refuses('permissions.deleteProjectDefinition', p.admin, { params: { permission_id: 'a' } }, 'PERMISSION_NOT_FOUND')).status,
      404,
    );

    const upper = await t.refuses('permissions.createTeamDefinition', p.admin, { body: { id: 'Bad' } }, 'SCHEMA_ERROR');
    assert.equal(upper.status, 400);
    assert.match(upper.message, /Only lowercase letters, numbers, ":", "_" and optional "\$" at the beginning are allowed/);
    const sys = await t.refuses('permissions.createTeamDefinition', p.admin, { body: { id: '$nope' } }, 'SCHEMA_ERROR');
    assert.equal(sys.status, 400);
    assert.match(sys.message, /Invalid system permission/);
    assert.equal(
      (await t.refuses('permissions.createTeamDefinition', p.admin, { body: { id: 'ok', extra: true } }, 'SCHEMA_ERROR')).status,
      400,
    );
  });

  it('allows definitions only to admins', async () => {
    const t = get();
    const p = await createCoreProject(t);
    for (const caller of [p.client, p.server]) {
      assert.equal((await t.refuses('permissions.listTeamDefinitions', caller, {}, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
      assert.equal(
        (await t.refuses('permissions.createProjectDefinition', caller, { body: { id: 'x' } }, 'INSUFFICIENT_ACCESS_TYPE')).status,
        401,
      );
      assert.equal(
        (
          await t.refuses(
            'permissions.updateTeamDefinition',
            caller,
            { params: { permission_id: 'team_admin' }, body: {} },
            'INSUFFICIENT_ACCESS_TYPE',
          )
        ).status,
        401,
      );
      assert.equal(
        (await t.refuses('permissions.deleteProjectDefinition', caller, { params: { permission_id: 'x' } }, 'INSUFFICIENT_ACCESS_TYPE'))
          .status,
        401,
      );
    }
  });

  it('grants and revokes team permissions with their errors', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const alice = await createCoreUser(t, p);
    const team = await t.call<any>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    await t.call<any>('permissions.createProjectDefinition', p.admin, { body: { id: 'billing' } });

    assert.equal(
      (
        await t.refuses(
          'permissions.grantTeam',
          p.server,
          { params: { team_id: team.id, user_id: alice.id, permission_id: 'nope' }, body: {} },
          'PERMISSION_NOT_FOUND',
        )
      ).status,
      404,
    );
    const scope = await t.refuses(
      'permissions.grantTeam',
      p.server,
      { params: { team_id: team.id, user_id: alice.id, permission_id: 'billing' }, body: {} },
      'WRONG_PERMISSION_SCOPE',
    );
    assert.equal(scope.status, 404);
    assert.deepEqual(scope.details, { permission_id: 'billing', expected_scope: 'team', actual_scope: 'project' });
    assert.equal(
      (
        await t.refuses(
          'permissions.grantTeam',
          p.server,
          { params: { team_id: MISSING, user_id: alice.id, permission_id: 'team_member' }, body: {} },
          'TEAM_MEMBERSHIP_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.grantTeam',
          alice.client,
          { params: { team_id: team.id, user_id: alice.id, permission_id: 'team_member' }, body: {} },
          'INSUFFICIENT_ACCESS_TYPE',
        )
      ).status,
      401,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.grantTeam',
          p.server,
          { params: { team_id: team.id, user_id: alice.id, permission_id: 'Bad' }, body: {} },
          'SCHEMA_ERROR',
        )
      ).status,
      400,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.grantTeam',
          p.server,
          { params: { team_id: team.id, user_id: 'me', permission_id: 'team_member' }, body: {} },
          'CANNOT_GET_OWN_USER_WITHOUT_USER',
        )
      ).status,
      400,
    );

    // Granting twice is harmless; revoking a permission not held directly is TEAM_PERMISSION_NOT_FOUND.
    assert.ok(
      await t.call<any>('permissions.grantTeam', p.server, {
        params: { team_id: team.id, user_id: alice.id, permission_id: '$read_members' },
        body: {},
      }),
    );
    assert.ok(
      await t.call<any>('permissions.grantTeam', p.admin, {
        params: { team_id: team.id, user_id: alice.id, permission_id: '$read_members' },
        body: {},
      }),
    );
    assert.deepEqual(
      await t.call<any>('permissions.revokeTeam', p.server, {
        params: { team_id: team.id, user_id: alice.id, permission_id: '$read_members' },
      }),
      { success: true },
    );
    const notHeld = await t.refuses(
      'permissions.revokeTeam',
      p.server,
      { params: { team_id: team.id, user_id: alice.id, permission_id: '$read_members' } },
      'TEAM_PERMISSION_NOT_FOUND',
    );
    assert.equal(notHeld.status, 401);
    assert.equal(
      (
        await t.refuses(
          'permissions.revokeTeam',
          p.server,
          { params: { team_id: team.id, user_id: alice.id, permission_id: 'nope' } },
          'PERMISSION_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.revokeTeam',
          p.server,
          { params: { team_id: team.id, user_id: alice.id, permission_id: 'billing' } },
          'WRONG_PERMISSION_SCOPE',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.revokeTeam',
          alice.client,
          { params: { team_id: team.id, user_id: alice.id, permission_id: 'team_admin' } },
          'INSUFFICIENT_ACCESS_TYPE',
        )
      ).status,
      401,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.revokeTeam',
          p.server,
          { params: { team_id: team.id, user_id: 'me', permission_id: 'team_admin' } },
          'CANNOT_GET_OWN_USER_WITHOUT_USER',
        )
      ).status,
      400,
    );

    // Clients list only their own permissions.
    assert.equal(await refusal(t, 'permissions.listTeam', alice.client, { query: { team_id: team.id } }), 'status:forbidden');
    assert.equal(
      (await t.refuses('permissions.listTeam', p.client, { query: { user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status,
      400,
    );
    assert.equal((await t.refuses('permissions.listTeam', p.server, { query: { recursive: 'yes' } }, 'SCHEMA_ERROR')).status, 400);
  });

  it('grants, lists and revokes project permissions, with user defaults', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await t.call<any>('permissions.createProjectDefinition', p.admin, { body: { id: 'read' } });
    assert.ok(
      await t.call<any>('permissions.createProjectDefinition', p.admin, { body: { id: 'write', contained_permission_ids: ['read'] } }),
    );
    await t.call<any>('projects.updateCurrent', p.admin, { body: { config: { user_default_permissions: [{ id: 'read' }] } } });
    const alice = await createCoreUser(t, p);
    assert.deepEqual(ids(await t.call<any>('permissions.listProject', alice.client, { query: { user_id: 'me' } })), ['read']);

    const granted = await t.call<any>('permissions.grantProject', p.server, {
      params: { user_id: alice.id, permission_id: 'write' },
      body: {},
    });
    assert.deepEqual(granted, { id: 'write', user_id: alice.id });
    const all = await t.call<any>('permissions.listProject', p.server, { query: { user_id: alice.id } });
    assert.deepEqual(all.items, [
      { id: 'read', user_id: alice.id },
      { id: 'write', user_id: alice.id },
    ]);
    await t.call<any>('permissions.revokeProject', p.server, { params: { user_id: alice.id, permission_id: 'read' } });
    assert.deepEqual(ids(await t.call<any>('permissions.listProject', p.server, { query: { user_id: alice.id, recursive: 'false' } })), [
      'write',
    ]);
    assert.deepEqual(
      ids(await t.call<any>('permissions.listProject', p.server, { query: { user_id: alice.id } })),
      ['write'],
      'direct grants by default, as upstream',
    );
    assert.deepEqual(ids(await t.call<any>('permissions.listProject', p.server, { query: { user_id: alice.id, recursive: 'true' } })), [
      'read',
      'write',
    ]);

    assert.equal(
      (
        await t.refuses(
          'permissions.grantProject',
          p.server,
          { params: { user_id: MISSING, permission_id: 'write' }, body: {} },
          'USER_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.grantProject',
          p.server,
          { params: { user_id: alice.id, permission_id: 'nope' }, body: {} },
          'PERMISSION_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.grantProject',
          p.server,
          { params: { user_id: alice.id, permission_id: 'team_admin' }, body: {} },
          'WRONG_PERMISSION_SCOPE',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.grantProject',
          p.server,
          { params: { user_id: 'me', permission_id: 'write' }, body: {} },
          'CANNOT_GET_OWN_USER_WITHOUT_USER',
        )
      ).status,
      400,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.grantProject',
          alice.client,
          { params: { user_id: alice.id, permission_id: 'write' }, body: {} },
          'INSUFFICIENT_ACCESS_TYPE',
        )
      ).status,
      401,
    );
    const notHeld = await t.refuses(
      'permissions.revokeProject',
      p.server,
      { params: { user_id: alice.id, permission_id: 'read' } },
      'PROJECT_PERMISSION_REQUIRED',
    );
    assert.equal(notHeld.status, 401);
    assert.deepEqual(notHeld.details, { user_id: alice.id, permission_id: 'read' });
    assert.equal(
      (
        await t.refuses(
          'permissions.revokeProject',
          p.server,
          { params: { user_id: alice.id, permission_id: 'nope' } },
          'PERMISSION_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.revokeProject',
          p.server,
          { params: { user_id: alice.id, permission_id: '$read_members' } },
          'WRONG_PERMISSION_SCOPE',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.revokeProject',
          alice.client,
          { params: { user_id: alice.id, permission_id: 'write' } },
          'INSUFFICIENT_ACCESS_TYPE',
        )
      ).status,
      401,
    );
    assert.equal(
      (
        await t.refuses(
          'permissions.revokeProject',
          p.server,
          { params: { user_id: 'me', permission_id: 'write' } },
          'CANNOT_GET_OWN_USER_WITHOUT_USER',
        )
      ).status,
      400,
    );
    assert.equal(await refusal(t, 'permissions.listProject', alice.client), 'status:forbidden');
    assert.equal(
      (await t.refuses('permissions.listProject', p.client, { query: { user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status,
      400,
    );
    assert.equal((await t.refuses('permissions.listProject', p.server, { query: { extra: '1' } }, 'SCHEMA_ERROR')).status, 400);
  });
  it('keeps the default-permission lists in step when a definition is renamed or deleted', async () => {
    const t = get();
    const p = await createCoreProject(t);
    assert.ok(
      await t.call<any>('permissions.updateTeamDefinition', p.admin, {
        params: { permission_id: 'team_admin' },
        body: { id: 'team_owner' },
      }),
    );
    assert.deepEqual(await t.call<any>('permissions.deleteTeamDefinition', p.admin, { params: { permission_id: 'team_member' } }), {
      success: true,
    });
    const config = (await t.call<any>('projects.getCurrentAdmin', p.admin)).config;
    assert.deepEqual(config.team_creator_default_permissions, [{ id: 'team_owner' }]);
    assert.deepEqual(config.team_member_default_permissions, []);
    const alice = await createCoreUser(t, p);
    const bob = await createCoreUser(t, p);
    const team = await t.call<any>('teams.create', p.server, { body: { display_name: 'T', creator_user_id: alice.id } });
    await t.call<any>('teams.addMember', p.server, { params: { team_id: team.id, user_id: bob.id }, body: {} });
    assert.deepEqual(
      ids(await t.call<any>('permissions.listTeam', p.server, { query: { team_id: team.id, user_id: alice.id, recursive: 'false' } })),
      ['team_owner'],
    );
    assert.deepEqual(ids(await t.call<any>('permissions.listTeam', p.server, { query: { team_id: team.id, user_id: bob.id } })), []);
  });

  it('marks the operations that create as created (201 on the wire)', () => {
    const t = get();
    const created = (id: string) => t.core.operations.find((op) => op.id === id)?.created === true;
    for (const id of [
      'permissions.createTeamDefinition',
      'permissions.createProjectDefinition',
      'permissions.grantTeam',
      'permissions.grantProject',
    ])
      assert.ok(created(id), id);
  });
});
