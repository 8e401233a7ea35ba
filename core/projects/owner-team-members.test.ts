import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createInternalUser, createProject, internal } from '../../test/helpers/api.ts';

describeWithServer('owner team members', (get) => {
  it('lists who can reach the team\'s projects with emails and permissions, and an owner can remove a member', async () => {
    const server = get();
    const { owner } = await createProject(server);
    await api(server, 'PATCH', `/users/${owner.id}`, internal.server, { primary_email: 'owner@example.com' });
    const colleague = await createInternalUser(server, { primary_email: 'grace@example.com', display_name: 'Grace' });
    const team = owner.selectedTeamId;
    const added = await api(server, 'POST', `/team-memberships/${team}/${colleague.id}`, internal.server, {});
    assert.equal(added.status, 201, added.text);
    const asOwner = { ...internal.client, accessToken: owner.accessToken };
    const list = await api(server, 'GET', `/internal/owner-team-members?team_id=${team}`, asOwner);
    assert.equal(list.status, 200, list.text);
    const byEmail = Object.fromEntries(list.body.items.map((m: { primary_email: string }) => [m.primary_email, m]));
    assert.deepEqual(Object.keys(byEmail).sort(), ['grace@example.com', 'owner@example.com']);
    assert.ok(byEmail['owner@example.com'].permission_ids.includes('team_admin'), JSON.stringify(byEmail));
    assert.equal(byEmail['grace@example.com'].display_name, 'Grace');

    const stranger = await createInternalUser(server);
    assertKnownError(await api(server, 'GET', `/internal/owner-team-members?team_id=${team}`, { ...internal.client, accessToken: stranger.accessToken }), 'TEAM_PERMISSION_REQUIRED', 401);
    assertKnownError(await api(server, 'GET', `/internal/owner-team-members?team_id=${team}`, internal.client), 'USER_AUTHENTICATION_REQUIRED', 401);

    const removed = await api(server, 'DELETE', `/team-memberships/${team}/${colleague.id}`, asOwner, {});
    assert.equal(removed.status, 200, removed.text);
    const after = await api(server, 'GET', `/internal/owner-team-members?team_id=${team}`, asOwner);
    assert.deepEqual(after.body.items.map((m: { user_id: string }) => m.user_id), [owner.id]);
    const projects = await api(server, 'GET', '/internal/projects', { ...internal.client, accessToken: colleague.accessToken });
    assert.deepEqual(projects.body.items, [], 'a removed member reaches the team\'s projects no more');
  });
});
