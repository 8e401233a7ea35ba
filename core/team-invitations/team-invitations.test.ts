import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import { projectUser } from '../../test/helpers/project-user.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const CALLBACK = 'http://localhost:3000/handler/team-invitation';
const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';

describeWithServer('team invitations', (get) => {
  async function setup() {
    const server = get();
    const p = await createProject(server);
    const alice = await projectUser(server, p, { display_name: 'Alice' });
    const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'Rocket', creator_user_id: alice.id })).body;
    return { server, p, alice, team };
  }

  it('emails an invitation, shows its details, and lets the invitee join with member defaults', async () => {
    const { server, p, alice, team } = await setup();
    const email = uniqueEmail('invitee');
    const sent = await api(server, 'POST', '/team-invitations/send-code', alice.client, { email, team_id: team.id, callback_url: CALLBACK });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.success, true);
    const mail = await smtp.waitFor(email);
    assert.equal(mail.subject, 'You have been invited to join Rocket');
    const code = codeFromEmail(mail);
    assert.ok(mail.html.includes(`${CALLBACK}?code=${code}`));

    const listed = await api(server, 'GET', `/team-invitations?team_id=${team.id}`, alice.client);
    assert.deepEqual(listed.body.items, [{ id: sent.body.id, team_id: team.id, team_display_name: 'Rocket', expires_at_millis: listed.body.items[0].expires_at_millis, recipient_email: email }]);
    assert.equal(listed.body.items[0].expires_at_millis, server.clock.now() + 7 * 24 * 3600 * 1000);

    const bob = await projectUser(server, p, { primary_email: email });
    assert.deepEqual((await api(server, 'POST', '/team-invitations/accept/check-code', bob.client, { code })).body, { is_code_valid: true });
    assert.deepEqual((await api(server, 'POST', '/team-invitations/accept/details', bob.client, { code })).body, { team_id: team.id, team_display_name: 'Rocket' });
    const accepted = await api(server, 'POST', '/team-invitations/accept', bob.client, { code });
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual(accepted.body, {});
    const perms = await api(server, 'GET', `/team-permissions?team_id=${team.id}&user_id=me&recursive=false`, bob.client);
    assert.deepEqual(perms.body.items.map((i: { id: string }) => i.id), ['team_member']);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept', bob.client, { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept/check-code', bob.client, { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept/details', bob.client, { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
    assertKnownError(await api(server, 'POST', `/team-invitations/${sent.body.id}/accept?user_id=me`, bob.client), 'VERIFICATION_CODE_ALREADY_USED', 409);
    assert.deepEqual((await api(server, 'GET', `/team-invitations?team_id=${team.id}`, p.server)).body.items, []);
  });

  it('requires $invite_members to invite and revoke, and $read_members to list, for clients', async () => {
    const { server, p, team } = await setup();
    const bob = await projectUser(server, p);
    const stranger = await projectUser(server, p);
    await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, p.server, {});
    await api(server, 'DELETE', `/team-permissions/${team.id}/${bob.id}/team_member`, p.server);
    const denied = await api(server, 'POST', '/team-invitations/send-code', bob.client, { email: uniqueEmail(), team_id: team.id, callback_url: CALLBACK });
    assertKnownError(denied, 'TEAM_PERMISSION_REQUIRED', 401);
    assert.equal(denied.body.details.permission_id, '$invite_members');
    assertKnownError(await api(server, 'GET', `/team-invitations?team_id=${team.id}`, stranger.client), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/team-invitations/send-code', p.client, { email: uniqueEmail(), team_id: team.id, callback_url: CALLBACK }), 'USER_AUTHENTICATION_REQUIRED', 401);

    const sent = await api(server, 'POST', '/team-invitations/send-code', p.server, { email: uniqueEmail(), team_id: team.id, callback_url: CALLBACK });
    assert.equal(sent.status, 200, sent.text);
    const revokeDenied = await api(server, 'DELETE', `/team-invitations/${sent.body.id}?team_id=${team.id}`, bob.client);
    assertKnownError(revokeDenied, 'TEAM_PERMISSION_REQUIRED', 401);
    assert.equal(revokeDenied.body.details.permission_id, '$remove_members');
    // upstream: team_id is required and its team is checked before the invitation.
    const noTeam = await api(server, 'DELETE', `/team-invitations/${sent.body.id}`, p.server);
    assertKnownError(noTeam, 'SCHEMA_ERROR', 400);
    assert.match(noTeam.body.error, /query\.team_id must be defined/);
    assertKnownError(await api(server, 'DELETE', `/team-invitations/${sent.body.id}?team_id=${MISSING}`, p.server), 'TEAM_NOT_FOUND', 404);
    const otherTeam = (await api(server, 'POST', '/teams', p.server, { display_name: 'Other' })).body;
    assertKnownError(await api(server, 'DELETE', `/team-invitations/${sent.body.id}?team_id=${otherTeam.id}`, p.server), 'VERIFICATION_CODE_NOT_FOUND', 404);
    assert.deepEqual((await api(server, 'DELETE', `/team-invitations/${sent.body.id}?team_id=${team.id}`, p.server)).body, { success: true });
    assertKnownError(await api(server, 'DELETE', `/team-invitations/${sent.body.id}?team_id=${team.id}`, p.server), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });

  it('lets clients list only with $read_members and $invite_members and revoke only with $remove_members, as upstream', async () => {
    const { server, p, team } = await setup();
    const bob = await projectUser(server, p);
    await api(server, 'POST', `/team-memberships/${team.id}/${bob.id}`, p.server, {});
    await api(server, 'DELETE', `/team-permissions/${team.id}/${bob.id}/team_member`, p.server);
    const sent = await api(server, 'POST', '/team-invitations/send-code', p.server, { email: uniqueEmail(), team_id: team.id, callback_url: CALLBACK });

    // $read_members alone: the listing names the missing $invite_members.
    await api(server, 'POST', `/team-permissions/${team.id}/${bob.id}/$read_members`, p.server, {});
    const noInvite = await api(server, 'GET', `/team-invitations?team_id=${team.id}`, bob.client);
    assertKnownError(noInvite, 'TEAM_PERMISSION_REQUIRED', 401);
    assert.deepEqual(noInvite.body.details, { team_id: team.id, user_id: bob.id, permission_id: '$invite_members' });
    assert.equal(noInvite.body.error, `User ${bob.id} does not have permission $invite_members in team ${team.id}.`);
    // $invite_members alone: $read_members is checked first.
    await api(server, 'DELETE', `/team-permissions/${team.id}/${bob.id}/$read_members`, p.server);
    await api(server, 'POST', `/team-permissions/${team.id}/${bob.id}/$invite_members`, p.server, {});
    const noRead = await api(server, 'GET', `/team-invitations?team_id=${team.id}`, bob.client);
    assertKnownError(noRead, 'TEAM_PERMISSION_REQUIRED', 401);
    assert.equal(noRead.body.details.permission_id, '$read_members');
    await api(server, 'POST', `/team-permissions/${team.id}/${bob.id}/$read_members`, p.server, {});
    const listed = await api(server, 'GET', `/team-invitations?team_id=${team.id}`, bob.client);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.items.map((i: { id: string }) => i.id), [sent.body.id]);

    // $invite_members does not allow revoking; $remove_members does.
    assertKnownError(await api(server, 'DELETE', `/team-invitations/${sent.body.id}?team_id=${team.id}`, bob.client), 'TEAM_PERMISSION_REQUIRED', 401);
    await api(server, 'POST', `/team-permissions/${team.id}/${bob.id}/$remove_members`, p.server, {});
    const revoked = await api(server, 'DELETE', `/team-invitations/${sent.body.id}?team_id=${team.id}`, bob.client);
    assert.equal(revoked.status, 200, revoked.text);
    assert.deepEqual(revoked.body, { success: true });
  });

  it('refuses an anonymous user accepting or inspecting an invitation with TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED', async () => {
    const { server, p, team } = await setup();
    const email = uniqueEmail('anon');
    await api(server, 'POST', '/team-invitations/send-code', p.server, { email, team_id: team.id, callback_url: CALLBACK });
    const code = codeFromEmail(await smtp.waitFor(email));
    const anon = await api(server, 'POST', '/auth/anonymous/sign-up', p.client, {});
    assert.equal(anon.status, 200, anon.text);
    const anonClient = { ...p.client, accessToken: anon.body.access_token, headers: { 'x-stack-allow-anonymous-user': 'true' } };
    const refused = await api(server, 'POST', '/team-invitations/accept', anonClient, { code });
    assertKnownError(refused, 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED', 403);
    assert.deepEqual(refused.body, {
      code: 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED',
      details: { restricted_reason: { type: 'anonymous' } },
      error: 'Restricted users cannot accept team invitations. Reason: anonymous. Please complete the onboarding process before accepting team invitations.',
    });
    assertKnownError(await api(server, 'POST', '/team-invitations/accept/details', anonClient, { code }), 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED', 403);
    // The refused attempt did not use the code up.
    const bob = await projectUser(server, p, { primary_email: uniqueEmail() });
    assert.equal((await api(server, 'POST', '/team-invitations/accept', bob.client, { code })).status, 200);
  });

  it('answers not-found, untrusted callbacks, bad codes and bad input', async () => {
    const { server, p, alice, team } = await setup();
    assertKnownError(await api(server, 'POST', '/team-invitations/send-code', p.server, { email: uniqueEmail(), team_id: MISSING, callback_url: CALLBACK }), 'TEAM_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/team-invitations/send-code', p.server, { email: uniqueEmail(), team_id: team.id, callback_url: 'https://evil.example.com/cb' }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    assertKnownError(await api(server, 'GET', `/team-invitations?team_id=${MISSING}`, p.server), 'TEAM_NOT_FOUND', 404);
    assert.equal((await api(server, 'GET', '/team-invitations', p.server)).status, 400);
    const bogus = 'a'.repeat(45);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept', alice.client, { code: bogus }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept/check-code', alice.client, { code: bogus }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept/details', alice.client, { code: bogus }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept', p.server, { code: bogus }), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'POST', '/team-invitations/send-code', p.server, { email: 'nope', team_id: team.id, callback_url: CALLBACK }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept', alice.client, { code: bogus, extra: 1 }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'DELETE', '/team-invitations/not-a-uuid', p.server), 'SCHEMA_ERROR', 400);

    // An expired code, and a code whose team was deleted.
    const email = uniqueEmail('late');
    await api(server, 'POST', '/team-invitations/send-code', p.server, { email, team_id: team.id, callback_url: CALLBACK });
    const code = codeFromEmail(await smtp.waitFor(email));
    const other = (await api(server, 'POST', '/teams', p.server, { display_name: 'Gone' })).body;
    const goneEmail = uniqueEmail('gone');
    await api(server, 'POST', '/team-invitations/send-code', p.server, { email: goneEmail, team_id: other.id, callback_url: CALLBACK });
    const goneCode = codeFromEmail(await smtp.waitFor(goneEmail));
    await api(server, 'DELETE', `/teams/${other.id}`, p.server);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept/details', alice.client, { code: goneCode }), 'TEAM_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept', alice.client, { code: goneCode }), 'TEAM_NOT_FOUND', 404);
    // Project keys do not expire with the clock (the owner's admin access token does).
    const keys = await createProjectKeys(server, p.admin);
    const byKey = {
      server: { projectId: p.projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey },
      client: { projectId: p.projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey },
    };
    server.clock.advance(7 * 24 * 3600 * 1000 + 1);
    const late = await projectUser(server, byKey);
    assertKnownError(await api(server, 'POST', '/team-invitations/accept', late.client, { code }), 'VERIFICATION_CODE_EXPIRED', 400);
  });

  it('lists received invitations for a verified email and accepts them by id, refusing other addresses', async () => {
    const { server, p, team } = await setup();
    const email = uniqueEmail('verified');
    const carol = await projectUser(server, p, { primary_email: email, primary_email_verified: true });
    const dave = await projectUser(server, p, { primary_email: uniqueEmail('other'), primary_email_verified: true });
    const sent = await api(server, 'POST', '/team-invitations/send-code', p.server, { email, team_id: team.id, callback_url: CALLBACK });
    const received = await api(server, 'GET', '/team-invitations?user_id=me', carol.client);
    assert.deepEqual(received.body.items.map((i: { id: string; team_display_name: string }) => [i.id, i.team_display_name]), [[sent.body.id, 'Rocket']]);
    assert.deepEqual((await api(server, 'GET', '/team-invitations?user_id=me', dave.client)).body.items, []);
    assertKnownError(await api(server, 'GET', `/team-invitations?user_id=${carol.id}`, dave.client), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);

    assertKnownError(await api(server, 'POST', `/team-invitations/${sent.body.id}/accept?user_id=me`, dave.client), 'TEAM_INVITATION_EMAIL_MISMATCH', 403);
    assertKnownError(await api(server, 'POST', `/team-invitations/${MISSING}/accept?user_id=me`, carol.client), 'VERIFICATION_CODE_NOT_FOUND', 404);
    assertKnownError(await api(server, 'POST', `/team-invitations/${sent.body.id}/accept`, p.client), 'USER_AUTHENTICATION_REQUIRED', 401);
    const ok = await api(server, 'POST', `/team-invitations/${sent.body.id}/accept?user_id=me`, carol.client);
    assert.equal(ok.status, 200, ok.text);
    const teams = await api(server, 'GET', '/teams?user_id=me', carol.client);
    assert.deepEqual(teams.body.items.map((t: { id: string }) => t.id), [team.id]);
    assertKnownError(await api(server, 'POST', `/team-invitations/${sent.body.id}/accept?user_id=me`, carol.client), 'VERIFICATION_CODE_NOT_FOUND', 404);

    // A verified secondary email channel counts too; an unverified one does not.
    const second = uniqueEmail('second');
    const unverified = uniqueEmail('unverified');
    assert.equal((await api(server, 'POST', '/contact-channels', p.server, { user_id: dave.id, type: 'email', value: second, is_verified: true, used_for_auth: false })).status, 201);
    assert.equal((await api(server, 'POST', '/contact-channels', p.server, { user_id: dave.id, type: 'email', value: unverified, is_verified: false, used_for_auth: false })).status, 201);
    const toSecond = await api(server, 'POST', '/team-invitations/send-code', p.server, { email: second, team_id: team.id, callback_url: CALLBACK });
    await api(server, 'POST', '/team-invitations/send-code', p.server, { email: unverified, team_id: team.id, callback_url: CALLBACK });
    assert.deepEqual((await api(server, 'GET', '/team-invitations?user_id=me', dave.client)).body.items.map((i: { id: string }) => i.id), [toSecond.body.id]);
    assert.equal((await api(server, 'POST', `/team-invitations/${toSecond.body.id}/accept`, dave.client)).status, 200);

    // The user errors of listing and accepting by id.
    assertKnownError(await api(server, 'GET', '/team-invitations?user_id=me', p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'GET', `/team-invitations?user_id=${MISSING}`, p.server), 'USER_NOT_FOUND', 404);
    assertKnownError(await api(server, 'GET', `/team-invitations?team_id=${team.id}`, p.client), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'POST', `/team-invitations/${sent.body.id}/accept?user_id=me`, p.server), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    assertKnownError(await api(server, 'POST', `/team-invitations/${sent.body.id}/accept?user_id=${MISSING}`, p.server), 'USER_NOT_FOUND', 404);

    // An invitation past its 7 days cannot be accepted by id either.
    const later = await api(server, 'POST', '/team-invitations/send-code', p.server, { email, team_id: team.id, callback_url: CALLBACK });
    const keys = await createProjectKeys(server, p.admin);
    const srv = { projectId: p.projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey };
    server.clock.advance(7 * 24 * 3600 * 1000 + 1);
    assertKnownError(await api(server, 'POST', `/team-invitations/${later.body.id}/accept?user_id=${carol.id}`, srv), 'VERIFICATION_CODE_EXPIRED', 400);
  });
}, { smtpUrl: smtp.url });
