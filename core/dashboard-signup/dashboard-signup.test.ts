import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, internal } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import { dashboardSignUpState } from './index.ts';
import { DASHBOARD_SIGNUP_ENV, dashboardSignUpForcedOpen } from '../../server-bin/config.ts';

const password = 'correct horse battery staple';
const signUp = (server: Parameters<typeof api>[0], email: string, caller = internal.client) =>
  api(server, 'POST', '/auth/password/sign-up', caller, { email, password });

// The suite's server is shared by its tests, in order: the first test runs on a fresh server.
describeWithServer('dashboard first-run sign-up', (get) => {
  it('lets the first owner sign up to the internal project, then refuses client sign-up with SIGN_UP_NOT_ENABLED', async () => {
    const server = get();
    assert.deepEqual(await dashboardSignUpState(server.gatehouse.core.runtime), { firstRun: true, signUpOpen: true, signUpStaysOpen: false });
    const first = await signUp(server, 'owner@example.com');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(await dashboardSignUpState(server.gatehouse.core.runtime), { firstRun: false, signUpOpen: false, signUpStaysOpen: false });
    assertKnownError(await signUp(server, 'stranger@example.com'), 'SIGN_UP_NOT_ENABLED', 400);
    assertKnownError(await api(server, 'POST', '/auth/anonymous/sign-up', internal.client), 'SIGN_UP_NOT_ENABLED', 400);
    // The owner still signs in.
    const signIn = await api(server, 'POST', '/auth/password/sign-in', internal.client, { email: 'owner@example.com', password });
    assert.equal(signIn.status, 200, signIn.text);
  });

  it('leaves users created with the server or admin key, and other projects, unaffected', async () => {
    const server = get();
    const created = await api(server, 'POST', '/users', internal.server, { primary_email: 'invited@example.com', primary_email_auth_enabled: true });
    assert.equal(created.status, 201, created.text);
    assert.equal((await signUp(server, 'server-made@example.com', internal.server)).status, 200);
    assert.equal((await signUp(server, 'admin-made@example.com', internal.admin)).status, 200);
    const { client } = await createProject(server);
    assert.equal((await signUp(server, 'app-user@example.com', client)).status, 200);
    assert.equal((await api(server, 'POST', '/auth/anonymous/sign-up', client)).status, 200);
  });

  it('lets an email with a pending invitation to a dashboard team sign up (owners invite others through their team)', async () => {
    const server = get();
    const owner = await api(server, 'GET', '/users?query=owner%40example.com', internal.server);
    const team = await api(server, 'POST', '/teams', internal.server, { display_name: 'Core', creator_user_id: owner.body.items[0].id });
    assert.equal(team.status, 201, team.text);
    const invited = await api(server, 'POST', '/team-invitations/send-code', internal.server, { team_id: team.body.id, email: 'invited-owner@example.com', callback_url: `${server.url}/handler/team-invitation` });
    assert.equal(invited.status, 200, invited.text);
    assertKnownError(await signUp(server, 'not-invited@example.com'), 'SIGN_UP_NOT_ENABLED', 400);
    const res = await signUp(server, 'Invited-Owner@Example.com');
    assert.equal(res.status, 200, res.text);
  });

  it(`keeps sign-up open with ${DASHBOARD_SIGNUP_ENV}=open`, async () => {
    const server = get();
    process.env[DASHBOARD_SIGNUP_ENV] = 'open';
    try {
      assert.equal(dashboardSignUpForcedOpen(process.env), true);
      assert.deepEqual(await dashboardSignUpState(server.gatehouse.core.runtime), { firstRun: false, signUpOpen: true, signUpStaysOpen: true });
      const res = await signUp(server, 'second-owner@example.com');
      assert.equal(res.status, 200, res.text);
    } finally {
      delete process.env[DASHBOARD_SIGNUP_ENV];
    }
    assertKnownError(await signUp(server, 'third@example.com'), 'SIGN_UP_NOT_ENABLED', 400);
  });

  it('still validates input and access before the rule', async () => {
    const server = get();
    assertKnownError(await api(server, 'POST', '/auth/password/sign-up', internal.client, { email: 'x@example.com', password, extra: 1 }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/auth/password/sign-up', { projectId: 'internal', accessType: 'server', secretServerKey: 'ssk_wrong' }, { email: 'x@example.com', password }), 'INVALID_SECRET_SERVER_KEY', 401);
  });
});

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

describeWithServer('dashboard first-run sign-up, one-time codes', (get) => {
  it('refuses a one-time-code sign-in that would create a second internal user, and still signs the owner in', async () => {
    const server = get();
    const patch = await api(server, 'PATCH', '/internal/projects/current', internal.admin, { config: { magic_link_enabled: true } });
    assert.equal(patch.status, 200, patch.text);
    const ownerEmail = uniqueEmail('otp-owner');
    const owner = await api(server, 'POST', '/users', internal.server, { primary_email: ownerEmail, primary_email_auth_enabled: true, primary_email_verified: true });
    assert.equal(owner.status, 201, owner.text);
    const codeFor = async (email: string) => {
      const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', internal.client, { email, callback_url: `${server.url}/handler/magic-link-callback` });
      assert.equal(sent.status, 200, sent.text);
      return codeFromEmail(await smtp.waitFor(email));
    };
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', internal.client, { code: await codeFor(uniqueEmail('otp-stranger')) }), 'SIGN_UP_NOT_ENABLED', 400);
    const ownerSignIn = await api(server, 'POST', '/auth/otp/sign-in', internal.client, { code: await codeFor(ownerEmail) });
    assert.equal(ownerSignIn.status, 200, ownerSignIn.text);
    assert.equal(ownerSignIn.body.is_new_user, false);
  });

  it('keeps an account that registered an invited address by password from creating projects until the invitation code proves the address (issue 12)', async () => {
    const server = get();
    const owner = await api(server, 'POST', '/users', internal.server, { primary_email: uniqueEmail('inv-owner'), primary_email_auth_enabled: true, primary_email_verified: true });
    const team = await api(server, 'POST', '/teams', internal.server, { display_name: 'Core', creator_user_id: owner.body.id });
    const invitee = uniqueEmail('invitee');
    assert.equal((await api(server, 'POST', '/team-invitations/send-code', internal.server, { team_id: team.body.id, email: invitee, callback_url: `${server.url}/handler/team-invitation` })).status, 200);
    const code = codeFromEmail(await smtp.waitFor(invitee));
    // Anyone may register the invited address by password while sign-up is closed...
    const squatter = await signUp(server, invitee);
    assert.equal(squatter.status, 200, squatter.text);
    const caller = { ...internal.client, accessToken: squatter.body.access_token };
    // ...but without the emailed code the account cannot use the dashboard.
    assertKnownError(await api(server, 'POST', '/internal/projects', caller, { display_name: 'Squat', owner_team_id: team.body.id }), 'EMAIL_NOT_VERIFIED', 400);
    assert.deepEqual((await api(server, 'POST', '/team-invitations/accept', caller, { code })).body, {});
    assert.equal((await api(server, 'GET', `/users/${squatter.body.user_id}`, internal.server)).body.primary_email_verified, true);
    assert.equal((await api(server, 'POST', '/internal/projects', caller, { display_name: 'Real', owner_team_id: team.body.id })).status, 201);
  });
}, { smtpUrl: smtp.url });

it('reads GATEHOUSE_DASHBOARD_SIGNUP case-insensitively and only accepts "open"', () => {
  assert.equal(dashboardSignUpForcedOpen({ [DASHBOARD_SIGNUP_ENV]: ' OPEN ' }), true);
  assert.equal(dashboardSignUpForcedOpen({ [DASHBOARD_SIGNUP_ENV]: 'closed' }), false);
  assert.equal(dashboardSignUpForcedOpen({}), false);
});
