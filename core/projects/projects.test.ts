import assert from 'node:assert/strict';
import { it } from 'node:test';
import { randomUUID } from 'node:crypto';
import {
  createCoreInternalUser,
  createCoreProject,
  describeWithCore,
  internalCredentials as internal,
} from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys, refusal } from '../../test/helpers/core-fixtures-b.ts';
import { insertTeam, insertTeamMember } from '../teams/queries.ts';

/** Projects and project keys, in-process (test/helpers/core-client.ts). */
describeWithCore('projects', (get) => {
  it('lets an internal user create a project and use it through an admin access token', async () => {
    const t = get();
    const { projectId, project, admin, client, owner } = (await createCoreProject(t, { magic_link_enabled: true })) as Awaited<
      ReturnType<typeof createCoreProject>
    > & { project: any };
    assert.equal(project.display_name, 'New Project');
    assert.equal(project.owner_team_id, owner.selectedTeamId);
    assert.equal(project.config.magic_link_enabled, true);
    assert.equal(project.config.sign_up_enabled, true);
    assert.deepEqual(project.config.team_creator_default_permissions, [{ id: 'team_admin' }]);
    assert.equal(project.onboarding_status, 'completed');

    const current = await t.call<{ id: string }>('projects.getCurrentAdmin', admin);
    assert.equal(current.id, projectId);

    const publicView = await t.call<any>('projects.getCurrent', client);
    assert.deepEqual(Object.keys(publicView).sort(), ['config', 'display_name', 'id']);
    assert.equal(publicView.config.magic_link_enabled, true);
    // The current official SDK reads it from the client project to trust localhost redirect targets
    // (@stackframe/js client-app-impl `_getTrustedRedirectConfig`).
    assert.equal(publicView.config.allow_localhost, true);

    const list = await t.call<{ items: Array<{ id: string }> }>('projects.list', { ...internal.client, accessToken: owner.accessToken });
    assert.deepEqual(
      list.items.map((p) => p.id),
      [projectId],
    );
  });

  it('refuses an admin access token of a user who does not own the project with ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', async () => {
    const t = get();
    const { projectId } = await createCoreProject(t);
    const stranger = await createCoreInternalUser(t);
    assert.equal(
      (
        await t.refuses(
          'projects.getCurrentAdmin',
          { projectId, accessType: 'admin', adminAccessToken: stranger.accessToken },
          {},
          'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
        )
      ).status,
      401,
    );
  });

  it('lists projects only in the internal project, and only for a signed-in user', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    assert.equal((await t.refuses('projects.list', internal.client, {}, 'USER_AUTHENTICATION_REQUIRED')).status, 401);
    assert.equal((await t.refuses('projects.list', client, {}, 'EXPECTED_INTERNAL_PROJECT')).status, 401);
  });

  it('updates config partially and rejects a bad trusted domain and a bad handler path', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    const ok = await t.call<any>('projects.updateCurrent', admin, {
      body: { display_name: 'Renamed', config: { domains: [{ domain: 'https://*.example.com', handler_path: '/handler' }] } },
    });
    assert.equal(ok.display_name, 'Renamed');
    assert.equal(ok.config.credential_enabled, true);
    assert.deepEqual(ok.config.domains, [{ domain: 'https://*.example.com', handler_path: '/handler' }]);

    assert.equal(
      (
        await t.refuses(
          'projects.updateCurrent',
          admin,
          { body: { config: { domains: [{ domain: 'https://exa mple..com', handler_path: '/handler' }] } } },
          'SCHEMA_ERROR',
        )
      ).status,
      400,
    );
    const badPath = await t.refuses(
      'projects.updateCurrent',
      admin,
      { body: { config: { domains: [{ domain: 'https://example.com', handler_path: 'handler' }] } } },
      'SCHEMA_ERROR',
    );
    assert.match(badPath.message, /Handler path must start with \//);
  });

  it('enforces the production-mode domain rules', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    const bad = await t.refuses(
      'projects.updateCurrent',
      admin,
      { body: { is_production_mode: true, config: { domains: [{ domain: 'http://localhost:3000', handler_path: '/handler' }] } } },
      'SCHEMA_ERROR',
    );
    assert.match(bad.message, /localhost/);
    const good = await t.call<{ is_production_mode: boolean }>('projects.updateCurrent', admin, {
      body: {
        is_production_mode: true,
        config: { allow_localhost: false, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] },
      },
    });
    assert.equal(good.is_production_mode, true);
    await t.refuses(
      'projects.updateCurrent',
      admin,
      { body: { config: { domains: [{ domain: 'https://10.0.0.1', handler_path: '/handler' }] } } },
      'SCHEMA_ERROR',
    );
  });

  it('transfers a project to another team of the owner and deletes it', async () => {
    const t = get();
    const { projectId, owner, admin } = await createCoreProject(t);
    assert.equal(
      (
        await t.refuses(
          'projects.transfer',
          { ...internal.client, accessToken: owner.accessToken },
          { body: { project_id: projectId, new_team_id: '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11' } },
          'TEAM_MEMBERSHIP_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.deepEqual(await t.call('projects.deleteCurrent', admin), { success: true });
    assert.equal(
      (await t.refuses('projects.getCurrent', { projectId, accessType: 'client' }, {}, 'CURRENT_PROJECT_NOT_FOUND')).status,
      400,
    );
  });

  it('creates project keys shown once, then only their last four, and revokes them', async () => {
    const t = get();
    const { projectId, admin } = await createCoreProject(t);
    const keys = await createCoreProjectKeys(t, admin);
    assert.match(keys.publishableClientKey, /^pck_[0-9a-z]{45}$/);
    assert.match(keys.secretServerKey, /^ssk_[0-9a-z]{45}$/);
    assert.match(keys.superSecretAdminKey, /^sak_[0-9a-z]{45}$/);

    const withKey = await t.call<{ id: string }>('projects.getCurrentAdmin', {
      projectId,
      accessType: 'admin',
      superSecretAdminKey: keys.superSecretAdminKey,
    });
    assert.equal(withKey.id, projectId);

    const list = await t.call<{ items: Array<Record<string, unknown> & { id: string }> }>('internalApiKeys.list', admin);
    assert.equal(list.items.length, 1);
    const item = list.items[0]!;
    assert.deepEqual(item.secret_server_key, { last_four: keys.secretServerKey.slice(-4) });
    assert.equal(JSON.stringify(list).includes(keys.secretServerKey), false);
    // As upstream (apps/e2e/.../internal/api-keys.test.ts): an active key carries no
    // manually_revoked_at_millis at all, a revoked one carries the time.
    assert.equal('manually_revoked_at_millis' in item, false);

    const revoked = await t.call<{ manually_revoked_at_millis: number }>('internalApiKeys.update', admin, {
      params: { api_key_id: item.id },
      body: { revoked: true },
    });
    assert.equal(typeof revoked.manually_revoked_at_millis, 'number');
    const denied = await t.refuses(
      'projects.getCurrentAdmin',
      { projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey },
      {},
      'INVALID_SUPER_SECRET_ADMIN_KEY',
    );
    assert.equal(denied.status, 401);
    assert.deepEqual(denied.details, { project_id: projectId });
  });

  it("moves a project to another of the owner's teams, after which that team's members manage it", async () => {
    const t = get();
    const { projectId, owner } = await createCoreProject(t);
    const db = t.core.runtime.db;
    const teamId = randomUUID();
    await insertTeam(db, {
      id: teamId,
      project_id: 'internal',
      display_name: 'Second',
      profile_image_url: null,
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: null,
      created_at: 1,
    });
    await insertTeamMember(db, 'internal', teamId, owner.id, 1);
    const colleague = await createCoreInternalUser(t);
    await insertTeamMember(db, 'internal', teamId, colleague.id, 1);
    assert.deepEqual(
      await t.call(
        'projects.transfer',
        { ...internal.client, accessToken: owner.accessToken },
        { body: { project_id: projectId, new_team_id: teamId } },
      ),
      { success: 'true' },
    );
    const asColleague = await t.call<{ owner_team_id: string }>('projects.getCurrentAdmin', {
      projectId,
      accessType: 'admin',
      adminAccessToken: colleague.accessToken,
    });
    assert.equal(asColleague.owner_team_id, teamId);
    const stranger = await createCoreInternalUser(t);
    assert.equal(
      (
        await t.refuses(
          'projects.transfer',
          { ...internal.client, accessToken: stranger.accessToken },
          { body: { project_id: projectId, new_team_id: stranger.selectedTeamId } },
          'PROJECT_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      (
        await t.refuses(
          'projects.transfer',
          internal.client,
          { body: { project_id: projectId, new_team_id: teamId } },
          'USER_AUTHENTICATION_REQUIRED',
        )
      ).status,
      401,
    );
  });

  it("reads one key set, renames it, and answers API_KEY_NOT_FOUND for another project's key", async () => {
    const t = get();
    const a = await createCoreProject(t);
    const b = await createCoreProject(t);
    await createCoreProjectKeys(t, a.admin);
    const [item] = (await t.call<{ items: Array<{ id: string }> }>('internalApiKeys.list', a.admin)).items;
    const one = await t.call<{ id: string }>('internalApiKeys.get', a.admin, { params: { api_key_id: item!.id } });
    assert.equal(one.id, item!.id);
    const renamed = await t.call<{ description: string }>('internalApiKeys.update', a.admin, {
      params: { api_key_id: item!.id },
      body: { description: 'renamed' },
    });
    assert.equal(renamed.description, 'renamed');
    assert.equal((await t.refuses('internalApiKeys.get', b.admin, { params: { api_key_id: item!.id } }, 'API_KEY_NOT_FOUND')).status, 404);
    assert.equal(
      (
        await t.refuses(
          'internalApiKeys.update',
          b.admin,
          { params: { api_key_id: item!.id }, body: { revoked: true } },
          'API_KEY_NOT_FOUND',
        )
      ).status,
      404,
    );
    // 400 on the wire: a key set with no key.
    assert.equal(
      await refusal(t, 'internalApiKeys.create', a.admin, {
        body: {
          description: 'x',
          expires_at_millis: null,
          has_publishable_client_key: false,
          has_secret_server_key: false,
          has_super_secret_admin_key: false,
        },
      }),
      'status:bad-request',
    );
  });

  it('refuses an expired project key', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const res = await t.call<{ secret_server_key: string }>('internalApiKeys.create', p.admin, {
      body: {
        description: 'short',
        expires_at_millis: t.clock.now() + 1000,
        has_publishable_client_key: false,
        has_secret_server_key: true,
        has_super_secret_admin_key: false,
      },
    });
    const key = res.secret_server_key;
    const asServer = { projectId: p.projectId, accessType: 'server', secretServerKey: key };
    assert.equal((await t.call<{ id: string }>('projects.getCurrent', asServer)).id, p.projectId);
    t.clock.advance(2000);
    assert.equal((await t.refuses('projects.getCurrent', asServer, {}, 'INVALID_SECRET_SERVER_KEY')).status, 401);
  });
});
