import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createInternalUser, createProject, createProjectKeys, internal } from '../../test/helpers/api.ts';
import { insertTeam, insertTeamMember } from '../teams/queries.ts';
import { randomUUID } from 'node:crypto';

describeWithServer('projects', (get) => {
  it('lets an internal user create a project and use it through an admin access token', async () => {
    const server = get();
    const { projectId, project, admin, client, owner } = await createProject(server, { magic_link_enabled: true });
    assert.equal(project.display_name, 'New Project');
    assert.equal(project.owner_team_id, owner.selectedTeamId);
    assert.equal(project.config.magic_link_enabled, true);
    assert.equal(project.config.sign_up_enabled, true);
    assert.deepEqual(project.config.team_creator_default_permissions, [{ id: 'team_admin' }]);
    assert.equal(project.onboarding_status, 'completed');

    const current = await api(server, 'GET', '/internal/projects/current', admin);
    assert.equal(current.status, 200);
    assert.equal(current.body.id, projectId);

    const publicView = await api(server, 'GET', '/projects/current', client);
    assert.deepEqual(Object.keys(publicView.body).sort(), ['config', 'display_name', 'id']);
    assert.equal(publicView.body.config.magic_link_enabled, true);
    // The current official SDK reads it from the client project to trust localhost redirect targets
    // (@stackframe/js client-app-impl `_getTrustedRedirectConfig`).
    assert.equal(publicView.body.config.allow_localhost, true);

    const list = await api(server, 'GET', '/internal/projects', { ...internal.client, accessToken: owner.accessToken });
    assert.deepEqual(list.body.items.map((p: { id: string }) => p.id), [projectId]);
  });

  it('refuses an admin access token of a user who does not own the project with ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', async () => {
    const server = get();
    const { projectId } = await createProject(server);
    const stranger = await createInternalUser(server);
    const res = await api(server, 'GET', '/internal/projects/current', { projectId, accessType: 'admin', adminAccessToken: stranger.accessToken });
    assertKnownError(res, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
  });

  it('lists projects only in the internal project, and only for a signed-in user', async () => {
    const server = get();
    const { client } = await createProject(server);
    assertKnownError(await api(server, 'GET', '/internal/projects', internal.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'GET', '/internal/projects', client), 'EXPECTED_INTERNAL_PROJECT', 401);
  });

  it('updates config partially and rejects a bad trusted domain and a bad handler path', async () => {
    const server = get();
    const { admin } = await createProject(server);
    const ok = await api(server, 'PATCH', '/internal/projects/current', admin, { display_name: 'Renamed', config: { domains: [{ domain: 'https://*.example.com', handler_path: '/handler' }] } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.display_name, 'Renamed');
    assert.equal(ok.body.config.credential_enabled, true);
    assert.deepEqual(ok.body.config.domains, [{ domain: 'https://*.example.com', handler_path: '/handler' }]);

    const badDomain = await api(server, 'PATCH', '/internal/projects/current', admin, { config: { domains: [{ domain: 'https://exa mple..com', handler_path: '/handler' }] } });
    assertKnownError(badDomain, 'SCHEMA_ERROR', 400);
    const badPath = await api(server, 'PATCH', '/internal/projects/current', admin, { config: { domains: [{ domain: 'https://example.com', handler_path: 'handler' }] } });
    assertKnownError(badPath, 'SCHEMA_ERROR', 400);
    assert.match(badPath.body.error, /Handler path must start with \//);
  });

  it('enforces the production-mode domain rules', async () => {
    const server = get();
    const { admin } = await createProject(server);
    const bad = await api(server, 'PATCH', '/internal/projects/current', admin, { is_production_mode: true, config: { domains: [{ domain: 'http://localhost:3000', handler_path: '/handler' }] } });
    assertKnownError(bad, 'SCHEMA_ERROR', 400);
    assert.match(bad.body.error, /localhost/);
    const good = await api(server, 'PATCH', '/internal/projects/current', admin, { is_production_mode: true, config: { allow_localhost: false, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] } });
    assert.equal(good.status, 200, good.text);
    const ip = await api(server, 'PATCH', '/internal/projects/current', admin, { config: { domains: [{ domain: 'https://10.0.0.1', handler_path: '/handler' }] } });
    assertKnownError(ip, 'SCHEMA_ERROR', 400);
  });

  it('transfers a project to another team of the owner and deletes it', async () => {
    const server = get();
    const { projectId, owner, admin } = await createProject(server);
    const team = await api(server, 'POST', '/internal/projects/transfer', { ...internal.client, accessToken: owner.accessToken }, { project_id: projectId, new_team_id: '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11' });
    assertKnownError(team, 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    const del = await api(server, 'DELETE', '/internal/projects/current', admin);
    assert.deepEqual(del.body, { success: true });
    const after = await api(server, 'GET', '/projects/current', { projectId, accessType: 'client' });
    assertKnownError(after, 'CURRENT_PROJECT_NOT_FOUND', 400);
  });

  it('creates project keys shown once, then only their last four, and revokes them', async () => {
    const server = get();
    const { projectId, admin } = await createProject(server);
    const keys = await createProjectKeys(server, admin);
    assert.match(keys.publishableClientKey, /^pck_[0-9a-z]{45}$/);
    assert.match(keys.secretServerKey, /^ssk_[0-9a-z]{45}$/);
    assert.match(keys.superSecretAdminKey, /^sak_[0-9a-z]{45}$/);

    const withKey = await api(server, 'GET', '/internal/projects/current', { projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey });
    assert.equal(withKey.status, 200);

    const list = await api(server, 'GET', '/internal/api-keys', admin);
    assert.equal(list.body.items.length, 1);
    const item = list.body.items[0];
    assert.deepEqual(item.secret_server_key, { last_four: keys.secretServerKey.slice(-4) });
    assert.equal(JSON.stringify(list.body).includes(keys.secretServerKey), false);
    // As upstream (apps/e2e/.../internal/api-keys.test.ts): an active key carries no
    // manually_revoked_at_millis at all, a revoked one carries the time.
    assert.equal('manually_revoked_at_millis' in item, false);

    const revoked = await api(server, 'PATCH', `/internal/api-keys/${item.id}`, admin, { revoked: true });
    assert.equal(typeof revoked.body.manually_revoked_at_millis, 'number');
    const denied = await api(server, 'GET', '/internal/projects/current', { projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey });
    assertKnownError(denied, 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
    assert.deepEqual(denied.body.details, { project_id: projectId });
  });

  it('moves a project to another of the owner\'s teams, after which that team\'s members manage it', async () => {
    const server = get();
    const { projectId, owner } = await createProject(server);
    const db = server.gatehouse.core.runtime.db;
    const teamId = randomUUID();
    await insertTeam(db, { id: teamId, project_id: 'internal', display_name: 'Second', profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null, created_at: 1 });
    await insertTeamMember(db, 'internal', teamId, owner.id, 1);
    const colleague = await createInternalUser(server);
    await insertTeamMember(db, 'internal', teamId, colleague.id, 1);
    const res = await api(server, 'POST', '/internal/projects/transfer', { ...internal.client, accessToken: owner.accessToken }, { project_id: projectId, new_team_id: teamId });
    assert.deepEqual(res.body, { success: 'true' });
    const asColleague = await api(server, 'GET', '/internal/projects/current', { projectId, accessType: 'admin', adminAccessToken: colleague.accessToken });
    assert.equal(asColleague.status, 200, asColleague.text);
    assert.equal(asColleague.body.owner_team_id, teamId);
    const stranger = await createInternalUser(server);
    assertKnownError(await api(server, 'POST', '/internal/projects/transfer', { ...internal.client, accessToken: stranger.accessToken }, { project_id: projectId, new_team_id: stranger.selectedTeamId }), 'PROJECT_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/internal/projects/transfer', internal.client, { project_id: projectId, new_team_id: teamId }), 'USER_AUTHENTICATION_REQUIRED', 401);
  });

  it('reads one key set, renames it, and answers API_KEY_NOT_FOUND for another project\'s key', async () => {
    const server = get();
    const a = await createProject(server);
    const b = await createProject(server);
    await createProjectKeys(server, a.admin);
    const [item] = (await api(server, 'GET', '/internal/api-keys', a.admin)).body.items;
    const one = await api(server, 'GET', `/internal/api-keys/${item.id}`, a.admin);
    assert.equal(one.body.id, item.id);
    const renamed = await api(server, 'PATCH', `/internal/api-keys/${item.id}`, a.admin, { description: 'renamed' });
    assert.equal(renamed.body.description, 'renamed');
    assertKnownError(await api(server, 'GET', `/internal/api-keys/${item.id}`, b.admin), 'API_KEY_NOT_FOUND', 404);
    assertKnownError(await api(server, 'PATCH', `/internal/api-keys/${item.id}`, b.admin, { revoked: true }), 'API_KEY_NOT_FOUND', 404);
    const none = await api(server, 'POST', '/internal/api-keys', a.admin, { description: 'x', expires_at_millis: null, has_publishable_client_key: false, has_secret_server_key: false, has_super_secret_admin_key: false });
    assert.equal(none.status, 400);
  });

  it('refuses an expired project key', async () => {
    const server = get();
    const p = await createProject(server);
    const res = await api(server, 'POST', '/internal/api-keys', p.admin, { description: 'short', expires_at_millis: server.clock.now() + 1000, has_publishable_client_key: false, has_secret_server_key: true, has_super_secret_admin_key: false });
    const key = res.body.secret_server_key as string;
    assert.equal((await api(server, 'GET', '/projects/current', { projectId: p.projectId, accessType: 'server', secretServerKey: key })).status, 200);
    server.clock.advance(2000);
    assertKnownError(await api(server, 'GET', '/projects/current', { projectId: p.projectId, accessType: 'server', secretServerKey: key }), 'INVALID_SECRET_SERVER_KEY', 401);
  });
});
