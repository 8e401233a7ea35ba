import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { createProject } from '../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../test/helpers/smtp.ts';
import { describeWithServer } from '../test/helpers/suite.ts';
import type { TestServer } from '../test/helpers/server.ts';
import { ClientApp, GatehouseKnownError } from './index.ts';
import { inProcessTransport } from './in-process.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const CALLBACK = 'http://localhost:3000/handler';

/** A client app for a fresh project with every client feature on (in-process transport). */
async function projectApp(server: TestServer) {
  const { projectId } = await createProject(server, {
    magic_link_enabled: true,
    client_team_creation_enabled: true,
    client_user_deletion_enabled: true,
    allow_user_api_keys: true,
  });
  const env = { now: () => server.clock.now() };
  const make = () =>
    new ClientApp({
      projectId,
      transport: inProcessTransport(server.gatehouse),
      tokenStore: 'memory',
      environment: env,
      urls: { handler: '/handler' },
    });
  return { projectId, make };
}

describeWithServer(
  'SDK flows against the real server',
  (get) => {
    it('signs up, verifies the email from the received link, signs out and in again', async () => {
      const { make } = await projectApp(get());
      const app = make();
      const email = uniqueEmail('sdk-flow');
      const up = await app.signUpWithCredential({
        email,
        password: 'a-long-password',
        verificationCallbackUrl: `${CALLBACK}/email-verification`,
        noRedirect: true,
      });
      assert.equal(up.status, 'ok', up.status === 'error' ? up.error.message : '');
      let user: Awaited<ReturnType<typeof app.getUser>> = await app.getUser({ or: 'throw' });
      assert.equal(user?.primaryEmail, email);
      assert.equal(user?.primaryEmailVerified, false);
      assert.equal(user?.hasPassword, true);

      const verified = await app.verifyEmail(codeFromEmail(await smtp.waitFor(email)));
      assert.equal(verified.status, 'ok');
      user = await app.getUser();
      assert.equal(user?.primaryEmailVerified, true);
      const again = await app.verifyEmail(codeFromEmail(await smtp.waitFor(email)));
      assert.equal(again.status === 'error' && again.error.code, 'VERIFICATION_CODE_ALREADY_USED');

      const duplicate = await make().signUpWithCredential({
        email,
        password: 'a-long-password',
        noVerificationCallback: true,
        noRedirect: true,
      });
      assert.equal(duplicate.status === 'error' && duplicate.error.code, 'USER_EMAIL_ALREADY_EXISTS');
      assert.equal(duplicate.status === 'error' && duplicate.error.status, 409);

      await app.signOut();
      assert.equal(await app.getUser(), null);
      const wrong = await app.signInWithCredential({ email, password: 'not-the-password', noRedirect: true });
      assert.equal(wrong.status === 'error' && wrong.error.code, 'EMAIL_PASSWORD_MISMATCH');
      const ok = await app.signInWithCredential({ email, password: 'a-long-password', noRedirect: true });
      assert.equal(ok.status, 'ok');
      assert.equal((await app.getUser())?.primaryEmail, email);
    });

    it('updates the profile and password, and lists and revokes sessions', async () => {
      const { make } = await projectApp(get());
      const app = make();
      const email = uniqueEmail('sdk-profile');
      await app.signUpWithCredential({ email, password: 'first-password', noVerificationCallback: true, noRedirect: true });
      const user = (await app.getUser())!;
      await user.setDisplayName('Grace Hopper');
      assert.equal((await app.getUser())?.displayName, 'Grace Hopper');
      await assert.rejects(
        user.updatePassword({ oldPassword: 'wrong-password', newPassword: 'second-password' }),
        (e: unknown) => e instanceof GatehouseKnownError && e.code === 'PASSWORD_CONFIRMATION_MISMATCH',
      );
      await user.updatePassword({ oldPassword: 'first-password', newPassword: 'second-password' });

      const other = make();
      assert.equal((await other.signInWithCredential({ email, password: 'second-password', noRedirect: true })).status, 'ok');
      const sessions = await user.getActiveSessions();
      assert.equal(sessions.length, 2);
      const foreign = sessions.find((s) => !s.isCurrentSession)!;
      await assert.rejects(user.revokeSession(sessions.find((s) => s.isCurrentSession)!.id), GatehouseKnownError);
      await user.revokeSession(foreign.id);
      assert.equal((await user.getActiveSessions()).length, 1);
      get().clock.advance(11 * 60_000); // its access token expires; the refresh then fails
      assert.equal(await other.getUser(), null, 'the revoked session is signed out');
      assert.equal(other.session?.isKnownInvalid(), true);
    });

    it('resets a forgotten password and signs in with a magic link', async () => {
      const { make } = await projectApp(get());
      const app = make();
      const email = uniqueEmail('sdk-reset');
      await app.signUpWithCredential({ email, password: 'old-password-1', noVerificationCallback: true, noRedirect: true });
      await app.signOut();

      const sent = await app.sendForgotPasswordEmail(email, { callbackUrl: `${CALLBACK}/password-reset` });
      assert.equal(sent.status, 'ok');
      const code = codeFromEmail(await smtp.waitFor((m) => m.to.includes(email) && /reset/i.test(m.subject + m.text)));
      assert.equal((await app.verifyPasswordResetCode(code)).status, 'ok');
      assert.equal((await app.resetPassword({ code, password: 'new-password-2' })).status, 'ok');
      const reused = await app.resetPassword({ code, password: 'new-password-3' });
      assert.equal(reused.status, 'error');
      assert.equal((await app.signInWithCredential({ email, password: 'new-password-2', noRedirect: true })).status, 'ok');
      await app.signOut();

      const before = smtp.to(email).length;
      const magic = await app.sendMagicLinkEmail(email, { callbackUrl: `${CALLBACK}/magic-link-callback` });
      assert.equal(magic.status, 'ok');
      assert.ok(magic.status === 'ok' && typeof magic.data.nonce === 'string');
      const mail = await smtp.waitFor((m) => m.to.includes(email) && smtp.to(email).indexOf(m) >= before);
      assert.equal((await app.signInWithMagicLink(codeFromEmail(mail), { noRedirect: true })).status, 'ok');
      assert.equal((await app.getUser())?.primaryEmail, email);
    });

    it('manages contact channels, teams, API keys and notification preferences', async () => {
      const { make } = await projectApp(get());
      const app = make();
      const email = uniqueEmail('sdk-things');
      await app.signUpWithCredential({ email, password: 'a-long-password', noVerificationCallback: true, noRedirect: true });
      const user = (await app.getUser())!;

      const second = uniqueEmail('sdk-second');
      const channel = await user.createContactChannel({ value: second, usedForAuth: false });
      assert.equal(channel.value, second);
      assert.deepEqual((await user.listContactChannels()).map((c) => c.value).sort(), [email, second].sort());
      await channel.sendVerificationEmail({ callbackUrl: `${CALLBACK}/email-verification` });
      await app.verifyEmail(codeFromEmail(await smtp.waitFor(second)));
      assert.equal((await user.listContactChannels()).find((c) => c.value === second)?.isVerified, true);
      await channel.delete();
      assert.deepEqual(
        (await user.listContactChannels()).map((c) => c.value),
        [email],
      );

      const team = await user.createTeam({ displayName: 'Rockets' });
      assert.equal(team.displayName, 'Rockets');
      assert.ok((await user.listTeams()).some((t) => t.id === team.id));
      assert.equal((await app.getUser())?.selectedTeam?.id, team.id, 'creating a team selects it');
      assert.equal(await user.hasPermission(team, '$update_team'), true);
      await team.update({ displayName: 'Rocket Club' });
      assert.equal((await user.getTeam(team.id))?.displayName, 'Rocket Club');

      const key = await user.createApiKey({ description: 'ci', expiresAt: null });
      assert.equal(typeof key.value, 'string');
      const keys = await user.listApiKeys();
      assert.equal(keys.length, 1);
      assert.deepEqual(keys[0]!.value, { lastFour: (key.value as string).slice(-4) });
      await keys[0]!.revoke();
      assert.equal((await user.listApiKeys())[0]!.whyInvalid(), 'manually-revoked');

      const categories = await user.listNotificationCategories();
      assert.ok(categories.length >= 1);
      const optional = categories.find((c) => c.canDisable);
      if (optional) {
        await optional.setEnabled(false);
        assert.equal((await user.listNotificationCategories()).find((c) => c.id === optional.id)?.enabled, false);
      }

      await user.delete();
      assert.equal(app.session?.isKnownInvalid(), true, 'deleting the current user ends the session');
      assert.equal(await app.getUser(), null);
      assert.equal((await make().signInWithCredential({ email, password: 'a-long-password', noRedirect: true })).status, 'error');
    });

    it('invites a user to a team by email; the invitee sees the team name and joins', async () => {
      const { make } = await projectApp(get());
      const owner = make();
      await owner.signUpWithCredential({
        email: uniqueEmail('sdk-owner'),
        password: 'a-long-password',
        noVerificationCallback: true,
        noRedirect: true,
      });
      const team = await (await owner.getUser())!.createTeam({ displayName: 'Gliders' });
      const inviteeEmail = uniqueEmail('sdk-invitee');
      await team.inviteUser({ email: inviteeEmail, callbackUrl: `${CALLBACK}/team-invitation` });
      const invitations = await team.listInvitations();
      assert.equal(invitations.length, 1);
      assert.equal(invitations[0]!.recipientEmail, inviteeEmail);
      const code = codeFromEmail(await smtp.waitFor(inviteeEmail));

      const invitee = make();
      await invitee.signUpWithCredential({
        email: inviteeEmail,
        password: 'a-long-password',
        noVerificationCallback: true,
        noRedirect: true,
      });
      const details = await invitee.getTeamInvitationDetails(code);
      assert.equal(details.status === 'ok' && details.data.team_display_name, 'Gliders');
      assert.equal((await invitee.acceptTeamInvitation(code)).status, 'ok');
      assert.ok((await (await invitee.getUser())!.listTeams()).some((t) => t.id === team.id));
      const reused = await invitee.acceptTeamInvitation(code);
      assert.equal(reused.status, 'error');
      assert.deepEqual(
        (await team.listUsers()).map((m) => m.userId).sort(),
        [(await owner.getUser())!.id, (await invitee.getUser())!.id].sort(),
      );
    });
  },
  { smtpUrl: smtp.url },
);
