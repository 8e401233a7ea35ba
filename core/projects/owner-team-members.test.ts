import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  createCoreInternalUser,
  createCoreProject,
  describeWithCore,
  internalCredentials as internal,
} from '../../test/helpers/core-client.ts';

/** The dashboard's owner-team members, in-process (test/helpers/core-client.ts). */
describeWithCore('owner team members', (get) => {
  it("lists who can reach the team's projects with emails and permissions, and an owner can remove a member", async () => {
    const t = get();
    const { owner } = await createCoreProject(t);
    await t.call('users.update', internal.server, { params: { user_id: owner.id }, body: { primary_email: 'owner@example.com' } });
    const colleague = await createCoreInternalUser(t, { primary_email: 'grace@example.com', display_name: 'Grace' });
    const team = owner.selectedTeamId;
    await t.call('teams.addMember', internal.server, { params: { team_id: team, user_id: colleague.id }, body: {} });
    const asOwner = { ...internal.client, accessToken: owner.accessToken };
    const list = await t.call<{ items: Array<{ user_id: string; primary_email: string; display_name: string; permission_ids: string[] }> }>(
      'projects.listOwnerTeamMembers',
      asOwner,
      { query: { team_id: team } },
    );
    const byEmail = Object.fromEntries(list.items.map((m) => [m.primary_email, m]));
    assert.deepEqual(Object.keys(byEmail).sort(), ['grace@example.com', 'owner@example.com']);
    assert.ok(byEmail['owner@example.com']!.permission_ids.includes('team_admin'), JSON.stringify(byEmail));
    assert.equal(byEmail['grace@example.com']!.display_name, 'Grace');

    const stranger = await createCoreInternalUser(t);
    assert.equal(
      (
        await t.refuses(
          'projects.listOwnerTeamMembers',
          { ...internal.client, accessToken: stranger.accessToken },
          { query: { team_id: team } },
          'TEAM_PERMISSION_REQUIRED',
        )
      ).status,
      401,
    );
    assert.equal(
      (await t.refuses('projects.listOwnerTeamMembers', internal.client, { query: { team_id: team } }, 'USER_AUTHENTICATION_REQUIRED'))
        .status,
      401,
    );

    await t.call('teams.removeMember', asOwner, { params: { team_id: team, user_id: colleague.id }, body: {} });
    const after = await t.call<{ items: Array<{ user_id: string }> }>('projects.listOwnerTeamMembers', asOwner, {
      query: { team_id: team },
    });
    assert.deepEqual(
      after.items.map((m) => m.user_id),
      [owner.id],
    );
    const projects = await t.call<{ items: unknown[] }>('projects.list', { ...internal.client, accessToken: colleague.accessToken });
    assert.deepEqual(projects.items, [], "a removed member reaches the team's projects no more");
  });
});
