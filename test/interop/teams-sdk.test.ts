import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api } from '../helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';
import { SDKS, errorCodeOf, sdkApps } from './helpers.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const PASSWORD = 'interop password 1';
const CONFIG = { client_team_creation_enabled: true, allow_user_api_keys: true, allow_team_api_keys: true };

/** A signed-in client app of a fresh user. */
async function signedIn(clientApp: () => any, email: string) {
  const app = clientApp();
  const res = await app.signUpWithCredential({ email, password: PASSWORD, noVerificationCallback: true, noRedirect: true });
  assert.equal(res.status, 'ok', JSON.stringify(res));
  const user = await app.getUser();
  assert.ok(user);
  return { app, user };
}

for (const sdk of SDKS) {
  describeWithServer(
    `teams, permissions, API keys and invitations through ${sdk.name}`,
    (get) => {
      it('creates, lists, updates and deletes teams as a client, with its members', async () => {
        const server = get();
        const { clientApp, serverApp } = await sdkApps(server, sdk.module, CONFIG);
        const { user } = await signedIn(clientApp, 'alice@example.com');
        const team = await user.createTeam({ displayName: 'Alpha' });
        assert.equal(team.displayName, 'Alpha');
        assert.deepEqual(
          (await user.listTeams()).map((t: { id: string }) => t.id),
          [team.id],
        );
        assert.equal((await user.getTeam(team.id))?.displayName, 'Alpha');

        await team.update({ displayName: 'Alpha 2', clientMetadata: { color: 'blue' } });
        const fromServer = await serverApp.getTeam(team.id);
        assert.equal(fromServer?.displayName, 'Alpha 2');
        assert.deepEqual(fromServer?.clientMetadata, { color: 'blue' });

        const bob = await signedIn(clientApp, 'bob@example.com');
        await fromServer.addUser(bob.user.id);
        const members = await team.listUsers();
        assert.deepEqual(members.map((m: { id: string }) => m.id).sort(), [user.id, bob.user.id].sort());
        const serverMembers = await fromServer.listUsers();
        assert.equal(serverMembers.find((m: { id: string }) => m.id === bob.user.id)?.primaryEmail, 'bob@example.com');

        const profile = await bob.user.getTeamProfile(team);
        await profile.update({ displayName: 'Bobby' });
        assert.equal((await bob.user.getTeamProfile(team)).displayName, 'Bobby');

        await bob.user.leaveTeam(team);
        assert.deepEqual(await bob.user.listTeams(), []);
        await team.delete();
        assert.equal(await serverApp.getTeam(team.id), null);
      });

      it('grants, checks and lists permissions, recursive and flat', async () => {
        const server = get();
        const { clientApp, serverApp, project } = await sdkApps(server, sdk.module, CONFIG);
        await api(server, 'POST', '/team-permission-definitions', project.admin, {
          id: 'docs:read',
          contained_permission_ids: ['$read_members'],
        });
        await api(server, 'POST', '/team-permission-definitions', project.admin, { id: 'editor', contained_permission_ids: ['docs:read'] });
        const { user } = await signedIn(clientApp, 'carol@example.com');
        const team = await serverApp.createTeam({ displayName: 'Perms' });
        await team.addUser(user.id);
        const serverUser = await serverApp.getUser(user.id);

        assert.equal(await serverUser.hasPermission(team, 'editor'), false);
        await serverUser.grantPermission(team, 'editor');
        assert.equal(await serverUser.hasPermission(team, 'editor'), true);
        assert.equal(await serverUser.hasPermission(team, '$read_members'), true);
        const flat = await serverUser.listPermissions(team, { recursive: false });
        assert.deepEqual(flat.map((p: { id: string }) => p.id).sort(), ['editor', 'team_member']);
        const all = await serverUser.listPermissions(team);
        assert.deepEqual(all.map((p: { id: string }) => p.id).sort(), [
          '$invite_members',
          '$read_members',
          'docs:read',
          'editor',
          'team_member',
        ]);

        const clientTeam = await user.getTeam(team.id);
        assert.equal(await user.hasPermission(clientTeam, 'docs:read'), true);
        assert.deepEqual(
          (await user.listPermissions(clientTeam)).map((p: { id: string }) => p.id).sort(),
          all.map((p: { id: string }) => p.id).sort(),
        );

        await serverUser.revokePermission(team, 'editor');
        assert.equal(await serverUser.hasPermission(team, 'docs:read'), false);
      });

      it('manages permission definitions with the admin app, and project permissions with the server app', async () => {
        const server = get();
        const { clientApp, serverApp, keys, project } = await sdkApps(server, sdk.module, CONFIG);
        const AdminApp = (sdk.module as unknown as { StackAdminApp: new (o: Record<string, unknown>) => any }).StackAdminApp;
        const admin = new AdminApp({
          baseUrl: server.url,
          projectId: project.projectId,
          publishableClientKey: keys.publishableClientKey,
          secretServerKey: keys.secretServerKey,
          superSecretAdminKey: keys.superSecretAdminKey,
          tokenStore: null,
        });

        await admin.createTeamPermissionDefinition({
          id: 'moderator',
          description: 'Moderates',
          containedPermissionIds: ['$remove_members'],
        });
        const teamDefs = await admin.listTeamPermissionDefinitions();
        assert.ok(teamDefs.some((d: { id: string }) => d.id === 'moderator'));
        assert.ok(teamDefs.some((d: { id: string }) => d.id === '$manage_api_keys'));
        await admin.updateTeamPermissionDefinition('moderator', {
          description: 'Moderates a lot',
          containedPermissionIds: ['$remove_members', '$read_members'],
        });
        const updated = (await admin.listTeamPermissionDefinitions()).find((d: { id: string }) => d.id === 'moderator');
        assert.equal(updated.description, 'Moderates a lot');
        assert.deepEqual([...updated.containedPermissionIds].sort(), ['$read_members', '$remove_members']);
        await admin.deleteTeamPermissionDefinition('moderator');
        assert.equal(
          (await admin.listTeamPermissionDefinitions()).some((d: { id: string }) => d.id === 'moderator'),
          false,
        );

        await admin.createProjectPermissionDefinition({ id: 'billing:read', containedPermissionIds: [] });
        await admin.createProjectPermissionDefinition({ id: 'billing:write', containedPermissionIds: ['billing:read'] });
        assert.deepEqual(
          (await admin.listProjectPermissionDefinitions()).map((d: { id: string }) => d.id),
          ['billing:read', 'billing:write'],
        );

        const { user } = await signedIn(clientApp, uniqueEmail('erin'));
        const serverUser = await serverApp.getUser(user.id);
        await serverUser.grantPermission('billing:write');
        assert.equal(await serverUser.hasPermission('billing:read'), true);
        assert.deepEqual(
          (await serverUser.listPermissions({ recursive: false })).map((p: { id: string }) => p.id),
          ['billing:write'],
        );
        assert.equal(await user.hasPermission('billing:read'), true);
        await serverUser.revokePermission('billing:write');
        assert.equal(await serverUser.hasPermission('billing:read'), false);
      });

      it('creates, lists, checks and revokes user and team API keys', async () => {
        const server = get();
        const { clientApp, serverApp } = await sdkApps(server, sdk.module, CONFIG);
        const { user } = await signedIn(clientApp, 'dave@example.com');
        const key = await user.createApiKey({ description: 'laptop', expiresAt: null });
        assert.equal(typeof key.value, 'string');
        assert.match(key.value, /574ck4u7h[0-9a-f]{8}$/);
        const keys = await user.listApiKeys();
        assert.deepEqual(
          keys.map((k: { id: string }) => k.id),
          [key.id],
        );
        assert.equal(keys[0].value.lastFour, key.value.slice(-4));

        const owner = await serverApp.getUser({ apiKey: key.value });
        assert.equal(owner?.id, user.id);
        assert.equal(await serverApp.getUser({ apiKey: key.value.slice(0, -1) + (key.value.endsWith('0') ? '1' : '0') }), null);

        const team = await user.createTeam({ displayName: 'Keys' });
        const teamKey = await team.createApiKey({ description: 'ci', expiresAt: null });
        assert.deepEqual(
          (await team.listApiKeys()).map((k: { id: string }) => k.id),
          [teamKey.id],
        );
        assert.equal((await serverApp.getTeam({ apiKey: teamKey.value }))?.id, team.id);
        assert.equal(await serverApp.getUser({ apiKey: teamKey.value }), null);

        await keys[0].revoke();
        assert.equal(await serverApp.getUser({ apiKey: key.value }), null);
      });

      it('invites by email, lists and revokes invitations, and accepts one by code', async () => {
        const server = get();
        const { clientApp } = await sdkApps(server, sdk.module, CONFIG);
        const { user } = await signedIn(clientApp, uniqueEmail('inviter'));
        const team = await user.createTeam({ displayName: 'Invitees' });
        const email = uniqueEmail('invitee');
        const callbackUrl = 'http://localhost:3000/handler/team-invitation';
        await team.inviteUser({ email, callbackUrl });
        const code = codeFromEmail(await smtp.waitFor(email));
        const revokable = uniqueEmail('revoked');
        await team.inviteUser({ email: revokable, callbackUrl });

        const invitations = await team.listInvitations();
        assert.deepEqual(invitations.map((i: { recipientEmail: string }) => i.recipientEmail).sort(), [email, revokable].sort());
        assert.ok(invitations[0].expiresAt instanceof Date);
        await invitations.find((i: { recipientEmail: string }) => i.recipientEmail === revokable).revoke();
        assert.deepEqual(
          (await team.listInvitations()).map((i: { recipientEmail: string }) => i.recipientEmail),
          [email],
        );

        const invitee = await signedIn(clientApp, email);
        const details = await invitee.app.getTeamInvitationDetails(code);
        assert.equal(details.status, 'ok', JSON.stringify(details));
        assert.equal(details.data.teamDisplayName, 'Invitees');
        assert.equal((await invitee.app.verifyTeamInvitationCode(code)).status, 'ok');
        assert.equal((await invitee.app.acceptTeamInvitation(code)).status, 'ok');
        assert.deepEqual(
          (await invitee.user.listTeams()).map((t: { id: string }) => t.id),
          [team.id],
        );
        assert.equal(errorCodeOf(await invitee.app.acceptTeamInvitation(code)), 'VERIFICATION_CODE_ALREADY_USED');
      });
    },
    { smtpUrl: smtp.url },
  );
}
