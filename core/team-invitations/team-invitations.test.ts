import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { createCoreProject, createCoreUser, describeWithCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys, refusal } from '../../test/helpers/core-fixtures-b.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const CALLBACK = 'http://localhost:3000/handler/team-invitation';
const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

/** Team invitations, in-process (test/helpers/core-client.ts), emails through a test SMTP receiver. */
describeWithCore(
  'team invitations',
  (get) => {
    async function setup() {
      const t = get();
      const p = await createCoreProject(t);
      const alice = await createCoreUser(t, p, { display_name: 'Alice' });
      const team = await t.call<any>('teams.create', p.server, { body: { display_name: 'Rocket', creator_user_id: alice.id } });
      return { t, p, alice, team };
    }

    it('emails an invitation, shows its details, and lets the invitee join with member defaults', async () => {
      const { t, p, alice, team } = await setup();
      const email = uniqueEmail('invitee');
      const sent = await t.call<any>('teamInvitations.send', alice.client, { body: { email, team_id: team.id, callback_url: CALLBACK } });
      assert.equal(sent.success, true);
      const mail = await smtp.waitFor(email);
      assert.equal(mail.subject, 'You have been invited to join Rocket');
      const code = codeFromEmail(mail);
      assert.ok(mail.html.includes(`${CALLBACK}?code=${code}`));

      const listed = await t.call<any>('teamInvitations.list', alice.client, { query: { team_id: team.id } });
      assert.deepEqual(listed.items, [
        {
          id: sent.id,
          team_id: team.id,
          team_display_name: 'Rocket',
          expires_at_millis: listed.items[0].expires_at_millis,
          recipient_email: email,
        },
      ]);
      assert.equal(listed.items[0].expires_at_millis, t.clock.now() + 7 * 24 * 3600 * 1000);

      const bob = await createCoreUser(t, p, { primary_email: email });
      assert.deepEqual(await t.call<any>('teamInvitations.checkCode', bob.client, { body: { code } }), { is_code_valid: true });
      assert.deepEqual(await t.call<any>('teamInvitations.details', bob.client, { body: { code } }), {
        team_id: team.id,
        team_display_name: 'Rocket',
      });
      const accepted = await t.call<any>('teamInvitations.accept', bob.client, { body: { code } });
      assert.deepEqual(accepted, {});
      const perms = await t.call<any>('permissions.listTeam', bob.client, {
        query: { team_id: team.id, user_id: 'me', recursive: 'false' },
      });
      assert.deepEqual(
        perms.items.map((i: { id: string }) => i.id),
        ['team_member'],
      );
      assert.equal(
        (await t.refuses('teamInvitations.accept', bob.client, { body: { code } }, 'VERIFICATION_CODE_ALREADY_USED')).status,
        409,
      );
      assert.equal(
        (await t.refuses('teamInvitations.checkCode', bob.client, { body: { code } }, 'VERIFICATION_CODE_ALREADY_USED')).status,
        409,
      );
      assert.equal(
        (await t.refuses('teamInvitations.details', bob.client, { body: { code } }, 'VERIFICATION_CODE_ALREADY_USED')).status,
        409,
      );
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.acceptById',
            bob.client,
            { params: { id: sent.id }, query: { user_id: 'me' } },
            'VERIFICATION_CODE_ALREADY_USED',
          )
        ).status,
        409,
      );
      assert.deepEqual((await t.call<any>('teamInvitations.list', p.server, { query: { team_id: team.id } })).items, []);
    });

    it('requires $invite_members to invite and revoke, and $read_members to list, for clients', async () => {
      const { t, p, team } = await setup();
      const bob = await createCoreUser(t, p);
      const stranger = await createCoreUser(t, p);
      await t.call<any>('teams.addMember', p.server, { params: { team_id: team.id, user_id: bob.id }, body: {} });
      await t.call<any>('permissions.revokeTeam', p.server, {
        params: { team_id: team.id, user_id: bob.id, permission_id: 'team_member' },
      });
      const denied = await t.refuses(
        'teamInvitations.send',
        bob.client,
        { body: { email: uniqueEmail(), team_id: team.id, callback_url: CALLBACK } },
        'TEAM_PERMISSION_REQUIRED',
      );
      assert.equal(denied.status, 401);
      assert.equal(denied.details.permission_id, '$invite_members');
      assert.equal(
        (await t.refuses('teamInvitations.list', stranger.client, { query: { team_id: team.id } }, 'TEAM_MEMBERSHIP_NOT_FOUND')).status,
        404,
      );
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.send',
            p.client,
            { body: { email: uniqueEmail(), team_id: team.id, callback_url: CALLBACK } },
            'USER_AUTHENTICATION_REQUIRED',
          )
        ).status,
        401,
      );

      const sent = await t.call<any>('teamInvitations.send', p.server, {
        body: { email: uniqueEmail(), team_id: team.id, callback_url: CALLBACK },
      });
      const revokeDenied = await t.refuses(
        'teamInvitations.revoke',
        bob.client,
        { params: { id: sent.id }, query: { team_id: team.id } },
        'TEAM_PERMISSION_REQUIRED',
      );
      assert.equal(revokeDenied.status, 401);
      assert.equal(revokeDenied.details.permission_id, '$remove_members');
      // upstream: team_id is required and its team is checked before the invitation.
      const noTeam = await t.refuses('teamInvitations.revoke', p.server, { params: { id: sent.id } }, 'SCHEMA_ERROR');
      assert.equal(noTeam.status, 400);
      assert.match(noTeam.message, /query\.team_id must be defined/);
      assert.equal(
        (await t.refuses('teamInvitations.revoke', p.server, { params: { id: sent.id }, query: { team_id: MISSING } }, 'TEAM_NOT_FOUND'))
          .status,
        404,
      );
      const otherTeam = await t.call<any>('teams.create', p.server, { body: { display_name: 'Other' } });
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.revoke',
            p.server,
            { params: { id: sent.id }, query: { team_id: otherTeam.id } },
            'VERIFICATION_CODE_NOT_FOUND',
          )
        ).status,
        404,
      );
      assert.deepEqual(await t.call<any>('teamInvitations.revoke', p.server, { params: { id: sent.id }, query: { team_id: team.id } }), {
        success: true,
      });
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.revoke',
            p.server,
            { params: { id: sent.id }, query: { team_id: team.id } },
            'VERIFICATION_CODE_NOT_FOUND',
          )
        ).status,
        404,
      );
    });

    it('lets clients list only with $read_members and $invite_members and revoke only with $remove_members, as upstream', async () => {
      const { t, p, team } = await setup();
      const bob = await createCoreUser(t, p);
      await t.call<any>('teams.addMember', p.server, { params: { team_id: team.id, user_id: bob.id }, body: {} });
      await t.call<any>('permissions.revokeTeam', p.server, {
        params: { team_id: team.id, user_id: bob.id, permission_id: 'team_member' },
      });
      const sent = await t.call<any>('teamInvitations.send', p.server, {
        body: { email: uniqueEmail(), team_id: team.id, callback_url: CALLBACK },
      });

      // $read_members alone: the listing names the missing $invite_members.
      await t.call<any>('permissions.grantTeam', p.server, {
        params: { team_id: team.id, user_id: bob.id, permission_id: '$read_members' },
        body: {},
      });
      const noInvite = await t.refuses('teamInvitations.list', bob.client, { query: { team_id: team.id } }, 'TEAM_PERMISSION_REQUIRED');
      assert.equal(noInvite.status, 401);
      assert.deepEqual(noInvite.details, { team_id: team.id, user_id: bob.id, permission_id: '$invite_members' });
      assert.equal(noInvite.message, `User ${bob.id} does not have permission $invite_members in team ${team.id}.`);
      // $invite_members alone: $read_members is checked first.
      await t.call<any>('permissions.revokeTeam', p.server, {
        params: { team_id: team.id, user_id: bob.id, permission_id: '$read_members' },
      });
      await t.call<any>('permissions.grantTeam', p.server, {
        params: { team_id: team.id, user_id: bob.id, permission_id: '$invite_members' },
        body: {},
      });
      const noRead = await t.refuses('teamInvitations.list', bob.client, { query: { team_id: team.id } }, 'TEAM_PERMISSION_REQUIRED');
      assert.equal(noRead.status, 401);
      assert.equal(noRead.details.permission_id, '$read_members');
      await t.call<any>('permissions.grantTeam', p.server, {
        params: { team_id: team.id, user_id: bob.id, permission_id: '$read_members' },
        body: {},
      });
      const listed = await t.call<any>('teamInvitations.list', bob.client, { query: { team_id: team.id } });
      assert.deepEqual(
        listed.items.map((i: { id: string }) => i.id),
        [sent.id],
      );

      // $invite_members does not allow revoking; $remove_members does.
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.revoke',
            bob.client,
            { params: { id: sent.id }, query: { team_id: team.id } },
            'TEAM_PERMISSION_REQUIRED',
          )
        ).status,
        401,
      );
      await t.call<any>('permissions.grantTeam', p.server, {
        params: { team_id: team.id, user_id: bob.id, permission_id: '$remove_members' },
        body: {},
      });
      const revoked = await t.call<any>('teamInvitations.revoke', bob.client, { params: { id: sent.id }, query: { team_id: team.id } });
      assert.deepEqual(revoked, { success: true });
    });

    it('refuses an anonymous user accepting or inspecting an invitation with TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED', async () => {
      const { t, p, team } = await setup();
      const email = uniqueEmail('anon');
      await t.call<any>('teamInvitations.send', p.server, { body: { email, team_id: team.id, callback_url: CALLBACK } });
      const code = codeFromEmail(await smtp.waitFor(email));
      const anon = await t.call<any>('anonymous.signUp', p.client);
      const anonClient = { ...p.client, accessToken: anon.access_token, allowAnonymousUser: true };
      const refused = await t.refuses(
        'teamInvitations.accept',
        anonClient,
        { body: { code } },
        'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED',
      );
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.details, { restricted_reason: { type: 'anonymous' } });
      assert.equal(
        refused.message,
        'Restricted users cannot accept team invitations. Reason: anonymous. Please complete the onboarding process before accepting team invitations.',
      );
      assert.equal(
        (await t.refuses('teamInvitations.details', anonClient, { body: { code } }, 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED')).status,
        403,
      );
      // The refused attempt did not use the code up.
      const bob = await createCoreUser(t, p, { primary_email: uniqueEmail() });
      assert.ok(await t.call<any>('teamInvitations.accept', bob.client, { body: { code } }));
    });

    it('answers not-found, untrusted callbacks, bad codes and bad input', async () => {
      const { t, p, alice, team } = await setup();
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.send',
            p.server,
            { body: { email: uniqueEmail(), team_id: MISSING, callback_url: CALLBACK } },
            'TEAM_NOT_FOUND',
          )
        ).status,
        404,
      );
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.send',
            p.server,
            { body: { email: uniqueEmail(), team_id: team.id, callback_url: 'https://evil.example.com/cb' } },
            'REDIRECT_URL_NOT_WHITELISTED',
          )
        ).status,
        400,
      );
      assert.equal((await t.refuses('teamInvitations.list', p.server, { query: { team_id: MISSING } }, 'TEAM_NOT_FOUND')).status, 404);
      assert.equal(await refusal(t, 'teamInvitations.list', p.server), 'status:bad-request');
      const bogus = 'a'.repeat(45);
      assert.equal(
        (await t.refuses('teamInvitations.accept', alice.client, { body: { code: bogus } }, 'VERIFICATION_CODE_NOT_FOUND')).status,
        404,
      );
      assert.equal(
        (await t.refuses('teamInvitations.checkCode', alice.client, { body: { code: bogus } }, 'VERIFICATION_CODE_NOT_FOUND')).status,
        404,
      );
      assert.equal(
        (await t.refuses('teamInvitations.details', alice.client, { body: { code: bogus } }, 'VERIFICATION_CODE_NOT_FOUND')).status,
        404,
      );
      assert.equal(
        (await t.refuses('teamInvitations.accept', p.server, { body: { code: bogus } }, 'USER_AUTHENTICATION_REQUIRED')).status,
        401,
      );
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.send',
            p.server,
            { body: { email: 'nope', team_id: team.id, callback_url: CALLBACK } },
            'SCHEMA_ERROR',
          )
        ).status,
        400,
      );
      assert.equal(
        (await t.refuses('teamInvitations.accept', alice.client, { body: { code: bogus, extra: 1 } }, 'SCHEMA_ERROR')).status,
        400,
      );
      assert.equal((await t.refuses('teamInvitations.revoke', p.server, { params: { id: 'not-a-uuid' } }, 'SCHEMA_ERROR')).status, 400);

      // An expired code, and a code whose team was deleted.
      const email = uniqueEmail('late');
      await t.call<any>('teamInvitations.send', p.server, { body: { email, team_id: team.id, callback_url: CALLBACK } });
      const code = codeFromEmail(await smtp.waitFor(email));
      const other = await t.call<any>('teams.create', p.server, { body: { display_name: 'Gone' } });
      const goneEmail = uniqueEmail('gone');
      await t.call<any>('teamInvitations.send', p.server, { body: { email: goneEmail, team_id: other.id, callback_url: CALLBACK } });
      const goneCode = codeFromEmail(await smtp.waitFor(goneEmail));
      await t.call<any>('teams.delete', p.server, { params: { team_id: other.id } });
      assert.equal((await t.refuses('teamInvitations.details', alice.client, { body: { code: goneCode } }, 'TEAM_NOT_FOUND')).status, 404);
      assert.equal((await t.refuses('teamInvitations.accept', alice.client, { body: { code: goneCode } }, 'TEAM_NOT_FOUND')).status, 404);
      // Project keys do not expire with the clock (the owner's admin access token does).
      const keys = await createCoreProjectKeys(t, p.admin);
      const byKey = {
        server: { projectId: p.projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey },
        client: { projectId: p.projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey },
      };
      t.clock.advance(7 * 24 * 3600 * 1000 + 1);
      const late = await createCoreUser(t, byKey);
      assert.equal((await t.refuses('teamInvitations.accept', late.client, { body: { code } }, 'VERIFICATION_CODE_EXPIRED')).status, 400);
    });

    it('lists received invitations for a verified email and accepts them by id, refusing other addresses', async () => {
      const { t, p, team } = await setup();
      const email = uniqueEmail('verified');
      const carol = await createCoreUser(t, p, { primary_email: email, primary_email_verified: true });
      const dave = await createCoreUser(t, p, { primary_email: uniqueEmail('other'), primary_email_verified: true });
      const sent = await t.call<any>('teamInvitations.send', p.server, { body: { email, team_id: team.id, callback_url: CALLBACK } });
      const received = await t.call<any>('teamInvitations.list', carol.client, { query: { user_id: 'me' } });
      assert.deepEqual(
        received.items.map((i: { id: string; team_display_name: string }) => [i.id, i.team_display_name]),
        [[sent.id, 'Rocket']],
      );
      assert.deepEqual((await t.call<any>('teamInvitations.list', dave.client, { query: { user_id: 'me' } })).items, []);
      assert.equal(
        (await t.refuses('teamInvitations.list', dave.client, { query: { user_id: carol.id } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status,
        400,
      );

      assert.equal(
        (
          await t.refuses(
            'teamInvitations.acceptById',
            dave.client,
            { params: { id: sent.id }, query: { user_id: 'me' } },
            'TEAM_INVITATION_EMAIL_MISMATCH',
          )
        ).status,
        403,
      );
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.acceptById',
            carol.client,
            { params: { id: MISSING }, query: { user_id: 'me' } },
            'VERIFICATION_CODE_NOT_FOUND',
          )
        ).status,
        404,
      );
      assert.equal(
        (await t.refuses('teamInvitations.acceptById', p.client, { params: { id: sent.id } }, 'USER_AUTHENTICATION_REQUIRED')).status,
        401,
      );
      assert.ok(await t.call<any>('teamInvitations.acceptById', carol.client, { params: { id: sent.id }, query: { user_id: 'me' } }));
      const teams = await t.call<any>('teams.list', carol.client, { query: { user_id: 'me' } });
      assert.deepEqual(
        teams.items.map((t: { id: string }) => t.id),
        [team.id],
      );
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.acceptById',
            carol.client,
            { params: { id: sent.id }, query: { user_id: 'me' } },
            'VERIFICATION_CODE_NOT_FOUND',
          )
        ).status,
        404,
      );

      // A verified secondary email channel counts too; an unverified one does not.
      const second = uniqueEmail('second');
      const unverified = uniqueEmail('unverified');
      assert.ok(
        await t.call<any>('contactChannels.create', p.server, {
          body: { user_id: dave.id, type: 'email', value: second, is_verified: true, used_for_auth: false },
        }),
      );
      assert.ok(
        await t.call<any>('contactChannels.create', p.server, {
          body: { user_id: dave.id, type: 'email', value: unverified, is_verified: false, used_for_auth: false },
        }),
      );
      const toSecond = await t.call<any>('teamInvitations.send', p.server, {
        body: { email: second, team_id: team.id, callback_url: CALLBACK },
      });
      await t.call<any>('teamInvitations.send', p.server, { body: { email: unverified, team_id: team.id, callback_url: CALLBACK } });
      assert.deepEqual(
        (await t.call<any>('teamInvitations.list', dave.client, { query: { user_id: 'me' } })).items.map((i: { id: string }) => i.id),
        [toSecond.id],
      );
      assert.ok(await t.call<any>('teamInvitations.acceptById', dave.client, { params: { id: toSecond.id } }));

      // The user errors of listing and accepting by id.
      assert.equal(
        (await t.refuses('teamInvitations.list', p.server, { query: { user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status,
        400,
      );
      assert.equal((await t.refuses('teamInvitations.list', p.server, { query: { user_id: MISSING } }, 'USER_NOT_FOUND')).status, 404);
      assert.equal(
        (await t.refuses('teamInvitations.list', p.client, { query: { team_id: team.id } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status,
        400,
      );
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.acceptById',
            p.server,
            { params: { id: sent.id }, query: { user_id: 'me' } },
            'CANNOT_GET_OWN_USER_WITHOUT_USER',
          )
        ).status,
        400,
      );
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.acceptById',
            p.server,
            { params: { id: sent.id }, query: { user_id: MISSING } },
            'USER_NOT_FOUND',
          )
        ).status,
        404,
      );

      // An invitation past its 7 days cannot be accepted by id either.
      const later = await t.call<any>('teamInvitations.send', p.server, { body: { email, team_id: team.id, callback_url: CALLBACK } });
      const keys = await createCoreProjectKeys(t, p.admin);
      const srv = { projectId: p.projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey };
      t.clock.advance(7 * 24 * 3600 * 1000 + 1);
      assert.equal(
        (
          await t.refuses(
            'teamInvitations.acceptById',
            srv,
            { params: { id: later.id }, query: { user_id: carol.id } },
            'VERIFICATION_CODE_EXPIRED',
          )
        ).status,
        400,
      );
    });
  },
  { smtpUrl: smtp.url },
);
