import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createInternalUser, createProject, internal } from '../helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';
import { projectUser } from '../helpers/project-user.ts';

/**
 * Issue 14 item 12 ("smaller ones") and item 7 (anonymous upgrade): each case asserts upstream's
 * status, error code and body shape as its route handlers and e2e snapshots record them
 * (stack-auth/stack-auth `https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/**`, `https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/**`).
 */

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const CALLBACK = 'http://localhost:3000/handler/magic-link-callback';
const PASSWORD = 'correct horse battery';

describeWithServer(
  'upstream details',
  (get) => {
    it('DELETE /teams/{id} ignores a body', async () => {
      const server = get();
      const p = await createProject(server);
      const team = (await api(server, 'POST', '/teams', p.server, { display_name: 'T' })).body;
      const res = await api(server, 'DELETE', `/teams/${team.id}`, p.server, { anything: 'goes', nested: { a: 1 } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true });
      assertKnownError(await api(server, 'GET', `/teams/${team.id}`, p.server), 'TEAM_NOT_FOUND', 404);
    });

    it('accepts an empty team display name on create and update', async () => {
      const server = get();
      const p = await createProject(server);
      const created = await api(server, 'POST', '/teams', p.server, { display_name: '' });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.display_name, '');
      const updated = await api(server, 'PATCH', `/teams/${created.body.id}`, p.server, { display_name: '' });
      assert.equal(updated.status, 200, updated.text);
      assert.equal(updated.body.display_name, '');
    });

    it('accepts expires_at_millis in the past on internal API keys', async () => {
      const server = get();
      const p = await createProject(server);
      const past = server.clock.now() - 1000;
      const res = await api(server, 'POST', '/internal/api-keys', p.admin, {
        description: 'already expired',
        expires_at_millis: past,
        has_publishable_client_key: false,
        has_secret_server_key: true,
        has_super_secret_admin_key: false,
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.expires_at_millis, past);
      // The key is expired from the start: it does not authenticate.
      const use = await api(server, 'GET', '/users', {
        projectId: p.projectId,
        accessType: 'server',
        secretServerKey: res.body.secret_server_key,
      });
      assert.equal(use.status, 401, use.text);
    });

    it('server POST /users takes a short password (no client minimum), still refusing one above 70 characters', async () => {
      const server = get();
      const p = await createProject(server);
      const email = uniqueEmail('short');
      const created = await api(server, 'POST', '/users', p.server, {
        primary_email: email,
        primary_email_auth_enabled: true,
        password: 'abc',
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.has_password, true);
      const signIn = await api(server, 'POST', '/auth/password/sign-in', p.client, { email, password: 'abc' });
      assert.equal(signIn.status, 200, signIn.text);
      assertKnownError(await api(server, 'POST', '/users', p.server, { password: 'x'.repeat(71) }), 'PASSWORD_TOO_LONG', 400);
    });

    it('admin DELETE /users/me deletes the user of the access token', async () => {
      const server = get();
      const p = await createProject(server);
      const alice = await projectUser(server, p);
      const res = await api(server, 'DELETE', '/users/me', { ...p.admin, accessToken: alice.accessToken });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true });
      assertKnownError(await api(server, 'GET', `/users/${alice.id}`, p.server), 'USER_NOT_FOUND', 404);
    });

    it('refreshing a session of a deleted user answers REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', async () => {
      const server = get();
      const p = await createProject(server);
      const signUp = await api(server, 'POST', '/auth/password/sign-up', p.client, { email: uniqueEmail('gone'), password: PASSWORD });
      assert.equal(signUp.status, 200, signUp.text);
      assert.equal((await api(server, 'DELETE', `/users/${signUp.body.user_id}`, p.server)).status, 200);
      const refreshed = await api(server, 'POST', '/auth/sessions/current/refresh', {
        ...p.client,
        refreshToken: signUp.body.refresh_token,
      });
      assertKnownError(refreshed, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    });

    it('OTP send for a new address while sign-up is disabled answers SIGN_UP_NOT_ENABLED', async () => {
      const server = get();
      const p = await createProject(server, { magic_link_enabled: true, sign_up_enabled: false });
      const res = await api(server, 'POST', '/auth/otp/send-sign-in-code', p.client, { email: uniqueEmail('new'), callback_url: CALLBACK });
      assertKnownError(res, 'SIGN_UP_NOT_ENABLED', 400);
      assert.deepEqual(res.body, {
        code: 'SIGN_UP_NOT_ENABLED',
        error: res.body.error,
        ...(res.body.details ? { details: res.body.details } : {}),
      });
      // An existing verified address still gets its code.
      const email = uniqueEmail('known');
      await api(server, 'POST', '/users', p.server, {
        primary_email: email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
      });
      const ok = await api(server, 'POST', '/auth/otp/send-sign-in-code', p.client, { email, callback_url: CALLBACK });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(typeof ok.body.nonce, 'string');
    });

    it('OTP send to an address whose auth channel became unverified answers USER_EMAIL_ALREADY_EXISTS with would_work_if_email_was_verified', async () => {
      const server = get();
      const p = await createProject(server, { magic_link_enabled: true });
      const email = uniqueEmail('unverified');
      const user = await api(server, 'POST', '/users', p.server, {
        primary_email: email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        otp_auth_enabled: true,
      });
      assert.equal((await api(server, 'PATCH', `/users/${user.body.id}`, p.server, { primary_email_verified: false })).status, 200);
      const res = await api(server, 'POST', '/auth/otp/send-sign-in-code', p.client, { email, callback_url: CALLBACK });
      assertKnownError(res, 'USER_EMAIL_ALREADY_EXISTS', 409);
      assert.deepEqual(res.body.details, { email, would_work_if_email_was_verified: true });
    });

    it('a verified non-primary channel used for auth signs its user in through OTP', async () => {
      const server = get();
      const p = await createProject(server, { magic_link_enabled: true });
      const alice = await projectUser(server, p, {
        primary_email: uniqueEmail('primary'),
        primary_email_verified: true,
        primary_email_auth_enabled: true,
      });
      const second = uniqueEmail('second');
      const channel = await api(server, 'POST', '/contact-channels', p.server, {
        user_id: alice.id,
        type: 'email',
        value: second,
        is_verified: true,
        used_for_auth: true,
      });
      assert.equal(channel.status, 201, channel.text);
      const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', p.client, { email: second, callback_url: CALLBACK });
      assert.equal(sent.status, 200, sent.text);
      const code = codeFromEmail(await smtp.waitFor(second));
      const signedIn = await api(server, 'POST', '/auth/otp/sign-in', p.client, { code });
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.body.user_id, alice.id);
      assert.equal(signedIn.body.is_new_user, false);
    });

    it('an empty email on password sign-in is a SCHEMA_ERROR naming body.email', async () => {
      const server = get();
      const p = await createProject(server);
      const res = await api(server, 'POST', '/auth/password/sign-in', p.client, { email: '', password: PASSWORD });
      assertKnownError(res, 'SCHEMA_ERROR', 400);
      assert.match(res.body.error, /body\.email/);
    });

    it("server GET /user-api-keys without user_id answers upstream's SCHEMA_ERROR", async () => {
      const server = get();
      const p = await createProject(server, { allow_user_api_keys: true, allow_team_api_keys: true });
      const res = await api(server, 'GET', '/user-api-keys', p.server);
      assertKnownError(res, 'SCHEMA_ERROR', 400);
      assert.deepEqual(res.body, {
        code: 'SCHEMA_ERROR',
        details: { message: 'user_id is required for user API keys' },
        error: 'user_id is required for user API keys',
      });
      assertKnownError(await api(server, 'GET', '/team-api-keys', p.server), 'SCHEMA_ERROR', 400);
    });

    it('restricted_by_admin: false with a reason is a SCHEMA_ERROR', async () => {
      const server = get();
      const p = await createProject(server);
      const alice = await projectUser(server, p);
      const res = await api(server, 'PATCH', `/users/${alice.id}`, p.server, {
        restricted_by_admin: false,
        restricted_by_admin_reason: 'why',
      });
      assertKnownError(res, 'SCHEMA_ERROR', 400);
      assert.match(res.body.error, /restricted_by_admin_reason must be null when restricted_by_admin is not true/);
      const details = await api(server, 'POST', '/users', p.server, { restricted_by_admin_private_details: 'secret' });
      assertKnownError(details, 'SCHEMA_ERROR', 400);
      assert.match(details.body.error, /restricted_by_admin_private_details must be null when restricted_by_admin is not true/);
      const ok = await api(server, 'PATCH', `/users/${alice.id}`, p.server, {
        restricted_by_admin: true,
        restricted_by_admin_reason: 'why',
      });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.restricted_by_admin_reason, 'why');
    });

    it('project transfer answers success "true"; a member without team_admin gets TEAM_PERMISSION_REQUIRED', async () => {
      const server = get();
      const p = await createProject(server);
      const owner = { ...internal.client, accessToken: p.owner.accessToken };
      const other = await api(server, 'POST', '/teams', owner, { display_name: 'Other', creator_user_id: 'me' });
      assert.equal(other.status, 201, other.text);
      // A second dashboard user, member of the owner team without team_admin.
      const bob = await createInternalUser(server);
      assert.equal((await api(server, 'POST', `/team-memberships/${p.owner.selectedTeamId}/${bob.id}`, internal.server, {})).status, 201);
      const denied = await api(
        server,
        'POST',
        '/internal/projects/transfer',
        { ...internal.client, accessToken: bob.accessToken },
        { project_id: p.projectId, new_team_id: bob.selectedTeamId },
      );
      assertKnownError(denied, 'TEAM_PERMISSION_REQUIRED', 401);
      assert.deepEqual(denied.body.details, { team_id: p.owner.selectedTeamId, user_id: bob.id, permission_id: 'team_admin' });
      const moved = await api(server, 'POST', '/internal/projects/transfer', owner, {
        project_id: p.projectId,
        new_team_id: other.body.id,
      });
      assert.equal(moved.status, 200, moved.text);
      assert.deepEqual(moved.body, { success: 'true' });
    });

    it('deleting an email template answers {}', async () => {
      const server = get();
      const p = await createProject(server, {
        email_config: {
          type: 'standard',
          host: '127.0.0.1',
          port: 2525,
          username: 'u',
          password: 'p',
          sender_name: 'S',
          sender_email: 'noreply@example.com',
        },
      });
      const created = await api(server, 'POST', '/internal/email-templates', p.admin, { display_name: 'Temp' });
      assert.equal(created.status, 200, created.text);
      const res = await api(server, 'DELETE', `/internal/email-templates/${created.body.id}`, p.admin);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {});
    });

    it("a new project's team_admin carries upstream's description", async () => {
      const server = get();
      const p = await createProject(server);
      const defs = await api(server, 'GET', '/team-permission-definitions', p.admin);
      const admin = defs.body.items.find((d: { id: string }) => d.id === 'team_admin');
      assert.equal(admin.description, 'Default permission for team admins');
    });

    it('allow_localhost may stay on in production mode', async () => {
      const server = get();
      const p = await createProject(server);
      const res = await api(server, 'PATCH', '/internal/projects/current', p.admin, {
        is_production_mode: true,
        config: { allow_localhost: true, domains: [] },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.is_production_mode, true);
      assert.equal(res.body.config.allow_localhost, true);
    });

    it("OTP sign-in with an anonymous user's token upgrades that user: same id, metadata kept, personal team renamed", async () => {
      const server = get();
      const p = await createProject(server, { magic_link_enabled: true, create_team_on_sign_up: true });
      const anon = await api(server, 'POST', '/auth/anonymous/sign-up', p.client, {});
      assert.equal(anon.status, 200, anon.text);
      const anonCaller = { ...p.client, accessToken: anon.body.access_token, headers: { 'x-stack-allow-anonymous-user': 'true' } };
      assert.equal((await api(server, 'PATCH', '/users/me', anonCaller, { client_metadata: { cart: [1, 2] } })).status, 200);
      const email = uniqueEmail('upgrade');
      assert.equal((await api(server, 'POST', '/auth/otp/send-sign-in-code', anonCaller, { email, callback_url: CALLBACK })).status, 200);
      const code = codeFromEmail(await smtp.waitFor(email));
      const signedIn = await api(server, 'POST', '/auth/otp/sign-in', anonCaller, { code });
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.body.user_id, anon.body.user_id);
      assert.equal(signedIn.body.is_new_user, true);
      const me = await api(server, 'GET', '/users/me', { ...p.client, accessToken: signedIn.body.access_token });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.is_anonymous, false);
      assert.equal(me.body.primary_email, email);
      assert.equal(me.body.otp_auth_enabled, true);
      assert.deepEqual(me.body.client_metadata, { cart: [1, 2] });
      assert.equal(me.body.selected_team.display_name, `${email}'s Team`);
    });

    it("password sign-up with an anonymous user's token renames the personal team too", async () => {
      const server = get();
      const p = await createProject(server, { create_team_on_sign_up: true });
      const anon = await api(server, 'POST', '/auth/anonymous/sign-up', p.client, {});
      const anonCaller = { ...p.client, accessToken: anon.body.access_token, headers: { 'x-stack-allow-anonymous-user': 'true' } };
      const email = uniqueEmail('pw-upgrade');
      const up = await api(server, 'POST', '/auth/password/sign-up', anonCaller, { email, password: PASSWORD });
      assert.equal(up.status, 200, up.text);
      assert.equal(up.body.user_id, anon.body.user_id);
      const me = await api(server, 'GET', '/users/me', { ...p.client, accessToken: up.body.access_token });
      assert.equal(me.body.selected_team.display_name, `${email}'s Team`);
    });

    it('GET /users/{id}?include_anonymous=true reads an anonymous user', async () => {
      const server = get();
      const p = await createProject(server);
      const anon = await api(server, 'POST', '/auth/anonymous/sign-up', p.client, {});
      const res = await api(server, 'GET', `/users/${anon.body.user_id}?include_anonymous=true`, p.server);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.id, anon.body.user_id);
      assert.equal(res.body.is_anonymous, true);
    });
  },
  { smtpUrl: smtp.url },
);
