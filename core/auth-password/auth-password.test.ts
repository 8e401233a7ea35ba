import assert from 'node:assert/strict';
import { it } from 'node:test';
import bcrypt from 'bcryptjs';
import { decodeJwt } from 'jose';
import type { Credentials } from '../index.ts';
import { StatusError } from '../errors/index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { coreBaseUrl, createCoreProjectKeys, keyCredentials } from '../../test/helpers/core-fixtures-b.ts';
import type { PasswordSignUpInfo } from './index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UserRow } from '../users/index.ts';

// In-process (test/helpers/core-client.ts): password sign-up, sign-in, update and set. The wire
// form of known errors is the host's to test (test/routes/).

const PASSWORD = 'correct horse battery';

interface Tokens {
  access_token: string;
  refresh_token: string;
  user_id: string;
}

const signUp = (t: TestCore, client: Credentials, email: string, password = PASSWORD, extra: Record<string, unknown> = {}) =>
  t.call<Tokens>('authPassword.signUp', client, { body: { email, password, ...extra } });

const signIn = (t: TestCore, client: Credentials, email: string, password = PASSWORD) =>
  t.call<Tokens>('authPassword.signIn', client, { body: { email, password } });

/** Asserts that `operationId` refuses with `code` and that code's `status`; returns the error. */
async function refuses(t: TestCore, operationId: string, credentials: Credentials, body: unknown, code: string, status: number) {
  const error = await t.refuses(operationId, credentials, { body }, code);
  assert.equal(error.status, status, `${code} answers ${error.status}`);
  return error;
}

/** A user made with the server key (no password unless `fields` give a hash), signed in by a server-made session. */
async function serverUser(t: TestCore, srv: Credentials, client: Credentials, fields: Record<string, unknown> = {}) {
  const created = await t.call<{ id: string }>('users.create', srv, { body: fields });
  const session = await t.call<{ access_token: string }>('sessions.create', srv, { body: { user_id: created.id } });
  return { id: created.id, me: { ...client, accessToken: session.access_token } };
}

// Records the password sign-up listener calls of this file's cores (filter by project).
const hookCalls: Array<{ projectId: string; userId: string; url: string | null; inTransaction: boolean }> = [];
async function recordSignUp(ctx: OperationContext, project: Project, user: UserRow, info: PasswordSignUpInfo): Promise<void> {
  hookCalls.push({ projectId: project.id, userId: user.id, url: info.verificationCallbackUrl, inTransaction: ctx.db.isTransaction });
}

describeWithCore(
  'auth-password',
  (get) => {
    it('signs up with email and password, returning tokens for a new user with that email', async () => {
      const t = get();
      const { client, projectId } = await createCoreProject(t);
      const res = await signUp(t, client, 'Alice@Example.COM', PASSWORD, {
        bot_challenge_token: 'mock-turnstile-ok:sign_up_with_credential',
        bot_challenge_phase: 'invisible',
        bot_challenge_unavailable: false,
      });
      assert.deepEqual(Object.keys(res).sort(), ['access_token', 'refresh_token', 'user_id']);
      assert.equal(res.refresh_token.length, 45);
      const claims = decodeJwt(res.access_token);
      assert.equal(claims.sub, res.user_id);
      assert.equal(claims.email, 'alice@example.com');
      assert.equal(claims.aud, projectId);
      const me = await t.call<any>('users.getCurrent', { ...client, accessToken: res.access_token });
      assert.equal(me.primary_email, 'alice@example.com');
      assert.equal(me.has_password, true);
      assert.equal(me.auth_with_email, true);
      assert.equal(me.primary_email_verified, false);
      assert.equal(me.is_anonymous, false);
    });

    it('runs the password sign-up listeners wired in createCore inside the sign-up transaction with the trusted callback URL', async () => {
      const t = get();
      const { client, projectId } = await createCoreProject(t);
      const res = await signUp(t, client, 'hook@example.com', PASSWORD, {
        verification_callback_url: 'http://localhost:3000/handler/email-verification',
      });
      const calls = hookCalls.filter((c) => c.projectId === projectId);
      assert.deepEqual(calls, [
        { projectId, userId: res.user_id, url: 'http://localhost:3000/handler/email-verification', inTransaction: true },
      ]);
      // The server's own origin is always trusted (hosted pages).
      await signUp(t, client, 'own@example.com', PASSWORD, { verification_callback_url: `${coreBaseUrl(t)}/handler/email-verification` });
    });

    it('creates the personal team on sign-up when create_team_on_sign_up is set', async () => {
      const t = get();
      const { client } = await createCoreProject(t, { create_team_on_sign_up: true });
      const tokens = await signUp(t, client, 'team@example.com');
      const me = await t.call<any>('users.getCurrent', { ...client, accessToken: tokens.access_token });
      assert.equal(me.selected_team.display_name, "team@example.com's Team");
    });

    it('checks sign-up in order: PASSWORD_AUTHENTICATION_NOT_ENABLED, REDIRECT_URL_NOT_WHITELISTED, SIGN_UP_NOT_ENABLED, password length', async () => {
      const t = get();
      const off = await createCoreProject(t, { credential_enabled: false, sign_up_enabled: false });
      const evil = { email: 'a@example.com', password: 'short', verification_callback_url: 'https://evil.example.org/cb' };
      await refuses(t, 'authPassword.signUp', off.client, evil, 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);

      const closed = await createCoreProject(t, { sign_up_enabled: false, allow_localhost: false });
      await refuses(t, 'authPassword.signUp', closed.client, evil, 'REDIRECT_URL_NOT_WHITELISTED', 400);
      const local = { ...evil, verification_callback_url: 'http://localhost:3000/cb' };
      await refuses(t, 'authPassword.signUp', closed.client, local, 'REDIRECT_URL_NOT_WHITELISTED', 400);
      await refuses(t, 'authPassword.signUp', closed.client, { email: 'a@example.com', password: 'short' }, 'SIGN_UP_NOT_ENABLED', 400);

      const open = await createCoreProject(t, { domains: [{ domain: 'https://*.example.com', handler_path: '/handler' }] });
      const trusted = { email: 'a@example.com', password: 'short', verification_callback_url: 'https://app.example.com/cb' };
      const short = await refuses(t, 'authPassword.signUp', open.client, trusted, 'PASSWORD_TOO_SHORT', 400);
      assert.deepEqual(short.details, { min_length: 8 });
      const long = await refuses(
        t,
        'authPassword.signUp',
        open.client,
        { email: 'a@example.com', password: 'x'.repeat(71) },
        'PASSWORD_TOO_LONG',
        400,
      );
      assert.deepEqual(long.details, { maxLength: 70 });
      await signUp(t, open.client, 'a@example.com', 'velvet tractor 93 and a purple umbrella over the quiet harbour lights!');
    });

    it('rejects a second sign-up with the same email with USER_EMAIL_ALREADY_EXISTS', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      await signUp(t, client, 'dup@example.com');
      const error = await refuses(
        t,
        'authPassword.signUp',
        client,
        { email: 'DUP@example.com', password: PASSWORD },
        'USER_EMAIL_ALREADY_EXISTS',
        409,
      );
      assert.equal(error.details.email, 'dup@example.com');
    });

    it('upgrades an anonymous user in place when it signs up with a password', async () => {
      const t = get();
      const { client, projectId } = await createCoreProject(t, { sign_up_enabled: true });
      const anon = await t.call<Tokens>('anonymous.signUp', client, { body: {} });
      const anonCaller = { ...client, accessToken: anon.access_token, allowAnonymousUser: true };
      const up = await t.call<Tokens>('authPassword.signUp', anonCaller, { body: { email: 'upgraded@example.com', password: PASSWORD } });
      assert.equal(up.user_id, anon.user_id);
      const me = await t.call<any>('users.getCurrent', { ...client, accessToken: up.access_token });
      assert.equal(me.id, anon.user_id);
      assert.equal(me.is_anonymous, false);
      assert.equal(me.is_restricted, false);
      assert.equal(me.primary_email, 'upgraded@example.com');
      assert.equal(decodeJwt(up.access_token).aud, projectId);
    });

    it('signs in with the right password, and answers EMAIL_PASSWORD_MISMATCH for a wrong password, an unknown email or a user without password', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t);
      const { user_id } = await signUp(t, client, 'bob@example.com');
      const ok = await signIn(t, client, 'BOB@example.com');
      assert.equal(ok.user_id, user_id);
      assert.equal(decodeJwt(ok.access_token).sub, user_id);
      const wrong = await refuses(
        t,
        'authPassword.signIn',
        client,
        { email: 'bob@example.com', password: 'wrong password' },
        'EMAIL_PASSWORD_MISMATCH',
        400,
      );
      const unknown = await refuses(
        t,
        'authPassword.signIn',
        client,
        { email: 'nobody@example.com', password: PASSWORD },
        'EMAIL_PASSWORD_MISMATCH',
        400,
      );
      assert.equal(unknown.message, wrong.message);
      await t.call('users.create', srv, { body: { primary_email: 'nopass@example.com' } });
      await refuses(t, 'authPassword.signIn', client, { email: 'nopass@example.com', password: PASSWORD }, 'EMAIL_PASSWORD_MISMATCH', 400);
    });

    it('verifies an imported bcrypt hash and upgrades it to argon2id on the next successful sign-in', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t);
      const hash = bcrypt.hashSync(PASSWORD, 4);
      const created = await t.call<{ id: string }>('users.create', srv, {
        body: { primary_email: 'imported@example.com', password_hash: hash },
      });
      const db = t.core.runtime.db;
      const stored = async () =>
        (await db.selectFrom('users').select('password_hash').where('id', '=', created.id).executeTakeFirstOrThrow()).password_hash;
      assert.equal(await stored(), hash);
      await refuses(
        t,
        'authPassword.signIn',
        client,
        { email: 'imported@example.com', password: 'not the password' },
        'EMAIL_PASSWORD_MISMATCH',
        400,
      );
      assert.equal(await stored(), hash);
      await signIn(t, client, 'imported@example.com');
      // At the core's cost (the test cores' cheap one; hash-formats.test.ts checks the real one).
      const cost = t.core.runtime.passwordHashCost;
      const upgraded = (await stored()) ?? '';
      assert.ok(upgraded.startsWith(`$argon2id$v=19$m=${cost.memoryCost},p=1,t=${cost.timeCost}$`), upgraded);
      await signIn(t, client, 'imported@example.com');
    });

    it('answers PASSWORD_AUTHENTICATION_NOT_ENABLED for sign-in, update and set when credential sign-in is off', async () => {
      const t = get();
      const { client, admin } = await createCoreProject(t);
      const tokens = await signUp(t, client, 'off@example.com');
      await t.call('projects.updateCurrent', admin, { body: { config: { credential_enabled: false } } });
      const user = { ...client, accessToken: tokens.access_token };
      await refuses(
        t,
        'authPassword.signIn',
        client,
        { email: 'off@example.com', password: PASSWORD },
        'PASSWORD_AUTHENTICATION_NOT_ENABLED',
        400,
      );
      await refuses(
        t,
        'authPassword.update',
        user,
        { old_password: PASSWORD, new_password: 'another password' },
        'PASSWORD_AUTHENTICATION_NOT_ENABLED',
        400,
      );
      await refuses(t, 'authPassword.set', user, { password: 'another password' }, 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);
    });

    it('updates the password, keeping the current session and revoking the others', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const first = await signUp(t, client, 'carol@example.com');
      const second = await signIn(t, client, 'carol@example.com');
      const me = { ...client, accessToken: first.access_token, refreshToken: first.refresh_token };
      assert.deepEqual(
        await t.call('authPassword.update', me, { body: { old_password: PASSWORD, new_password: 'a brand new password' } }),
        {
          success: true,
        },
      );
      await t.call('sessions.refreshCurrent', { ...client, refreshToken: first.refresh_token });
      const revoked = await t.refuses(
        'sessions.refreshCurrent',
        { ...client, refreshToken: second.refresh_token },
        {},
        'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
      );
      assert.equal(revoked.status, 401);
      await refuses(t, 'authPassword.signIn', client, { email: 'carol@example.com', password: PASSWORD }, 'EMAIL_PASSWORD_MISMATCH', 400);
      await signIn(t, client, 'carol@example.com', 'a brand new password');
    });

    it('refuses a password update with a wrong old password, a bad new one, no password or no user', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t);
      const tokens = await signUp(t, client, 'dave@example.com');
      const me = { ...client, accessToken: tokens.access_token };
      await refuses(
        t,
        'authPassword.update',
        me,
        { old_password: 'wrong password', new_password: 'a brand new password' },
        'PASSWORD_CONFIRMATION_MISMATCH',
        400,
      );
      await refuses(t, 'authPassword.update', me, { old_password: PASSWORD, new_password: 'short' }, 'PASSWORD_TOO_SHORT', 400);
      await refuses(t, 'authPassword.update', me, { old_password: PASSWORD, new_password: 'x'.repeat(71) }, 'PASSWORD_TOO_LONG', 400);
      // Upstream declares auth.user in the request schema.
      const noUser = await refuses(
        t,
        'authPassword.update',
        client,
        { old_password: PASSWORD, new_password: 'a brand new password' },
        'SCHEMA_ERROR',
        400,
      );
      const noUserText = 'Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined';
      assert.equal(noUser.message, noUserText);
      assert.deepEqual(noUser.details, { message: noUserText });
      await refuses(t, 'authPassword.update', me, { old_password: PASSWORD }, 'SCHEMA_ERROR', 400);
      const passwordless = await serverUser(t, srv, client);
      await refuses(
        t,
        'authPassword.update',
        passwordless.me,
        { old_password: PASSWORD, new_password: 'a brand new password' },
        'USER_DOES_NOT_HAVE_PASSWORD',
        400,
      );
    });

    it('sets a password for a user without one, and refuses with a bad request when one is set', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t);
      const { me } = await serverUser(t, srv, client, { primary_email: 'erin@example.com' });
      await refuses(t, 'authPassword.set', me, { password: 'short' }, 'PASSWORD_TOO_SHORT', 400);
      const noUser = await refuses(t, 'authPassword.set', client, { password: PASSWORD }, 'SCHEMA_ERROR', 400);
      const noUserText = 'Request validation failed on POST /api/v1/auth/password/set:\n  - auth.user must be defined';
      assert.equal(noUser.message, noUserText);
      assert.deepEqual(noUser.details, { message: noUserText });
      assert.deepEqual(await t.call('authPassword.set', me, { body: { password: PASSWORD } }), { success: true });
      await signIn(t, client, 'erin@example.com');
      const again = await t.core.invoke('authPassword.set', me, { body: { password: 'another password' } }).then(
        () => assert.fail('a second password was set'),
        (e: unknown) => e,
      );
      assert.ok(again instanceof StatusError, String(again));
      assert.equal(again.kind, 'bad-request');
      assert.match(again.message, /already has a password/);
    });

    it('works at every access level with keys, and rejects bad input and missing access type', async () => {
      const t = get();
      const { admin, projectId } = await createCoreProject(t);
      const keys = keyCredentials(projectId, await createCoreProjectKeys(t, admin));
      for (const [i, caller] of [keys.client, keys.server, keys.admin].entries()) {
        await signUp(t, caller, `level${i}@example.com`);
        await signIn(t, caller, `level${i}@example.com`);
      }
      await refuses(t, 'authPassword.signUp', { projectId }, { email: 'x@example.com', password: PASSWORD }, 'ACCESS_TYPE_REQUIRED', 400);
      const wrongKey = { ...keys.client, publishableClientKey: 'pck_wrong' };
      await refuses(
        t,
        'authPassword.signUp',
        wrongKey,
        { email: 'x@example.com', password: PASSWORD },
        'INVALID_PUBLISHABLE_CLIENT_KEY',
        401,
      );
      const bad = await refuses(
        t,
        'authPassword.signUp',
        keys.client,
        { email: 'not-an-email', password: PASSWORD, extra: 1 },
        'SCHEMA_ERROR',
        400,
      );
      assert.match(bad.message, /body\.email must be a valid email/);
      assert.match(bad.message, /extra/);
      await refuses(t, 'authPassword.signIn', keys.client, { email: 'x@example.com' }, 'SCHEMA_ERROR', 400);
      await refuses(t, 'authPassword.set', keys.client, { password: 12345678 }, 'SCHEMA_ERROR', 400);
    });
  },
  { hooks: { passwordSignUp: [recordSignUp] } },
);
