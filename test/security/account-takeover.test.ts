import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';
import type { TestServer } from '../helpers/server.ts';

// Issue 12 findings 2 (account pre-hijacking) and 3 (password reset and change leave sessions and
// older reset links alive). Each test plays the attack end to end over HTTP.

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

const CALLBACK = 'http://localhost:3000/handler/password-reset';
const OTP_CALLBACK = 'http://localhost:3000/handler/magic-link-callback';

async function signUp(server: TestServer, client: Caller, email: string, password: string) {
  const res = await api(server, 'POST', '/auth/password/sign-up', client, { email, password });
  assert.equal(res.status, 200, res.text);
  return res.body as { access_token: string; refresh_token: string; user_id: string };
}

async function signIn(server: TestServer, client: Caller, email: string, password: string) {
  const res = await api(server, 'POST', '/auth/password/sign-in', client, { email, password });
  assert.equal(res.status, 200, res.text);
  return res.body as { access_token: string; refresh_token: string; user_id: string };
}

/** Requests a reset link for `email` and returns the code of the newest one received. */
async function resetCode(server: TestServer, client: Caller, email: string): Promise<string> {
  const before = smtp.to(email).length;
  await api(server, 'POST', '/auth/password/send-reset-code', client, { email, callback_url: CALLBACK });
  await smtp.waitFor((m) => m.to.includes(email) && smtp.to(email).length > before);
  return codeFromEmail(smtp.to(email)[before]!);
}

const refresh = (server: TestServer, client: Caller, refreshToken: string) =>
  api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken });

describeWithServer(
  'account pre-hijacking (issue 12 finding 2)',
  (get) => {
    it('refuses to sign the address owner by OTP into an account an attacker pre-registered and armed with OTP', async () => {
      const server = get();
      const { client } = await createProject(server, { magic_link_enabled: true });
      const victim = uniqueEmail('victim');
      const attacker = await signUp(server, client, victim, 'attacker-chosen-pass-1');
      const armed = await api(server, 'PATCH', '/users/me', { ...client, accessToken: attacker.access_token }, { otp_auth_enabled: true });
      assert.equal(armed.status, 200, armed.text);

      const res = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: victim, callback_url: OTP_CALLBACK });
      assertKnownError(res, 'USER_EMAIL_ALREADY_EXISTS', 409);
      assert.deepEqual(res.body.details, { email: victim, would_work_if_email_was_verified: true });
    });

    it('refuses a magic link sent before the attacker registered the address, and keeps it unused', async () => {
      const server = get();
      const { client } = await createProject(server, { magic_link_enabled: true });
      const victim = uniqueEmail('victim');
      await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: victim, callback_url: OTP_CALLBACK });
      const code = codeFromEmail(await smtp.waitFor(victim));
      const attacker = await signUp(server, client, victim, 'attacker-chosen-pass-1');
      await api(server, 'PATCH', '/users/me', { ...client, accessToken: attacker.access_token }, { otp_auth_enabled: true });

      const res = await api(server, 'POST', '/auth/otp/sign-in', client, { code });
      assertKnownError(res, 'USER_EMAIL_ALREADY_EXISTS', 409);
      assert.equal(res.body.details.would_work_if_email_was_verified, true);
      assert.deepEqual((await api(server, 'POST', '/auth/otp/sign-in/check-code', client, { code })).body, { is_code_valid: true });
    });

    it('lets the owner take the account back by password reset: the attacker loses password, sessions, TOTP and API keys', async () => {
      const server = get();
      const { client, server: srv } = await createProject(server, { magic_link_enabled: true, allow_user_api_keys: true });
      const victim = uniqueEmail('victim');
      const attacker = await signUp(server, client, victim, 'attacker-chosen-pass-1');
      const attackerCaller = { ...client, accessToken: attacker.access_token };
      const second = await signIn(server, client, victim, 'attacker-chosen-pass-1');
      await api(server, 'PATCH', '/users/me', attackerCaller, { otp_auth_enabled: true, totp_secret_base64: 'MFRGGZDFMZTWQ2LK' });
      const key = await api(server, 'POST', '/user-api-keys', attackerCaller, { user_id: 'me', description: 'backdoor' });
      assert.equal(key.status, 200, key.text);

      const code = await resetCode(server, client, victim);
      assert.deepEqual((await api(server, 'POST', '/auth/password/reset', client, { code, password: 'victims own pass 2' })).body, {
        success: true,
      });

      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-in', client, { email: victim, password: 'attacker-chosen-pass-1' }),
        'EMAIL_PASSWORD_MISMATCH',
        400,
      );
      assertKnownError(await refresh(server, client, attacker.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
      assertKnownError(await refresh(server, client, second.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
      assertKnownError(await api(server, 'POST', '/user-api-keys/check', srv, { api_key: key.body.value }), 'API_KEY_REVOKED');
      const user = await api(server, 'GET', `/users/${attacker.user_id}`, srv);
      assert.equal(user.body.primary_email_verified, true);
      assert.equal(user.body.requires_totp_mfa, false);

      // Now that the address is proven, the owner's own OTP sign-in works and lands in the account.
      await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: victim, callback_url: OTP_CALLBACK });
      const otp = await smtp.waitFor((m) => m.to.includes(victim) && /Your code is/.test(m.subject));
      const signedIn = await api(server, 'POST', '/auth/otp/sign-in', client, { code: codeFromEmail(otp) });
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.body.user_id, attacker.user_id);
    });

    it('keeps the TOTP secret and API keys of an owner who resets an already verified address', async () => {
      const server = get();
      const { client, server: srv } = await createProject(server, { allow_user_api_keys: true });
      const email = uniqueEmail();
      const owner = await signUp(server, client, email, 'first password 1');
      await api(server, 'PATCH', `/users/${owner.user_id}`, srv, { primary_email_verified: true, totp_secret_base64: 'MFRGGZDFMZTWQ2LK' });
      const key = await api(
        server,
        'POST',
        '/user-api-keys',
        { ...client, accessToken: owner.access_token },
        { user_id: 'me', description: 'mine' },
      );
      const code = await resetCode(server, client, email);
      assert.equal((await api(server, 'POST', '/auth/password/reset', client, { code, password: 'second password 2' })).status, 200);
      assert.equal((await api(server, 'POST', '/user-api-keys/check', srv, { api_key: key.body.value })).status, 200);
      assert.equal((await api(server, 'GET', `/users/${owner.user_id}`, srv)).body.requires_totp_mfa, true);
    });
  },
  { smtpUrl: smtp.url },
);

describeWithServer(
  'password reset and change revoke sessions and reset links (issue 12 finding 3)',
  (get) => {
    it('a password reset revokes every session of the user and every other outstanding reset code', async () => {
      const server = get();
      const { client } = await createProject(server);
      const email = uniqueEmail();
      const a = await signUp(server, client, email, 'first password 1');
      const b = await signIn(server, client, email, 'first password 1');
      const older = await resetCode(server, client, email);
      const newer = await resetCode(server, client, email);
      assert.equal((await api(server, 'POST', '/auth/password/reset', client, { code: newer, password: 'second password 2' })).status, 200);

      assertKnownError(await refresh(server, client, a.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
      assertKnownError(await refresh(server, client, b.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
      assertKnownError(
        await api(server, 'POST', '/auth/password/reset', client, { code: older, password: 'third password 3' }),
        'VERIFICATION_CODE_ALREADY_USED',
        409,
      );
      assert.equal((await signIn(server, client, email, 'second password 2')).user_id, a.user_id);
    });

    it('a password update keeps the caller session but revokes the others and outstanding reset codes', async () => {
      const server = get();
      const { client } = await createProject(server);
      const email = uniqueEmail();
      const mine = await signUp(server, client, email, 'first password 1');
      const other = await signIn(server, client, email, 'first password 1');
      const pending = await resetCode(server, client, email);
      const res = await api(
        server,
        'POST',
        '/auth/password/update',
        { ...client, accessToken: mine.access_token, refreshToken: mine.refresh_token },
        { old_password: 'first password 1', new_password: 'second password 2' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal((await refresh(server, client, mine.refresh_token)).status, 200);
      assertKnownError(await refresh(server, client, other.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
      assertKnownError(
        await api(server, 'POST', '/auth/password/reset', client, { code: pending, password: 'attacker password 3' }),
        'VERIFICATION_CODE_ALREADY_USED',
        409,
      );
    });

    it('a server-side password set revokes the user sessions and outstanding reset codes', async () => {
      const server = get();
      const { client, server: srv } = await createProject(server);
      const email = uniqueEmail();
      const a = await signUp(server, client, email, 'first password 1');
      const pending = await resetCode(server, client, email);
      assert.equal((await api(server, 'PATCH', `/users/${a.user_id}`, srv, { password: 'server set pass 2' })).status, 200);
      assertKnownError(await refresh(server, client, a.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
      assertKnownError(
        await api(server, 'POST', '/auth/password/reset', client, { code: pending, password: 'attacker password 3' }),
        'VERIFICATION_CODE_ALREADY_USED',
        409,
      );
      // A display-name change is not a credential change: sessions survive it.
      const b = await signIn(server, client, email, 'server set pass 2');
      assert.equal((await api(server, 'PATCH', `/users/${a.user_id}`, srv, { display_name: 'New name' })).status, 200);
      assert.equal((await refresh(server, client, b.refresh_token)).status, 200);
    });

    it('setting a first password revokes the user other sessions but not the caller own', async () => {
      const server = get();
      const { client, server: srv } = await createProject(server);
      const created = await api(server, 'POST', '/users', srv, { primary_email: uniqueEmail(), primary_email_auth_enabled: true });
      const s1 = (await api(server, 'POST', '/auth/sessions', srv, { user_id: created.body.id })).body;
      const s2 = (await api(server, 'POST', '/auth/sessions', srv, { user_id: created.body.id })).body;
      const res = await api(
        server,
        'POST',
        '/auth/password/set',
        { ...client, accessToken: s1.access_token },
        { password: 'first password 1' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal((await refresh(server, client, s1.refresh_token)).status, 200);
      assertKnownError(await refresh(server, client, s2.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    });
  },
  { smtpUrl: smtp.url },
);
