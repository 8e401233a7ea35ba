import assert from 'node:assert/strict';
import { it } from 'node:test';
import bcrypt from 'bcryptjs';
import { decodeJwt } from 'jose';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, type Caller } from '../../test/helpers/api.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import type { PasswordSignUpInfo } from './index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UserRow } from '../users/index.ts';

const PASSWORD = 'correct horse battery';

async function signUp(server: TestServer, client: Caller, email: string, password = PASSWORD) {
  const res = await api(server, 'POST', '/auth/password/sign-up', client, { email, password });
  assert.equal(res.status, 200, res.text);
  return res.body as { access_token: string; refresh_token: string; user_id: string };
}

// Records the password sign-up listener calls of this file's servers (filter by project).
const hookCalls: Array<{ projectId: string; userId: string; url: string | null; inTransaction: boolean }> = [];
async function recordSignUp(ctx: OperationContext, project: Project, user: UserRow, info: PasswordSignUpInfo): Promise<void> {
  hookCalls.push({ projectId: project.id, userId: user.id, url: info.verificationCallbackUrl, inTransaction: ctx.db.isTransaction });
}

describeWithServer(
  'auth-password',
  (get) => {
    it('signs up with email and password, returning tokens for a new user with that email', async () => {
      const server = get();
      const { client, projectId } = await createProject(server);
      const res = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: 'Alice@Example.COM',
        password: PASSWORD,
        bot_challenge_token: 'mock-turnstile-ok:sign_up_with_credential',
        bot_challenge_phase: 'invisible',
        bot_challenge_unavailable: false,
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'refresh_token', 'user_id']);
      assert.equal(res.body.refresh_token.length, 45);
      const claims = decodeJwt(res.body.access_token);
      assert.equal(claims.sub, res.body.user_id);
      assert.equal(claims.email, 'alice@example.com');
      assert.equal(claims.aud, projectId);
      const me = await api(server, 'GET', '/users/me', { ...client, accessToken: res.body.access_token });
      assert.equal(me.body.primary_email, 'alice@example.com');
      assert.equal(me.body.has_password, true);
      assert.equal(me.body.auth_with_email, true);
      assert.equal(me.body.primary_email_verified, false);
      assert.equal(me.body.is_anonymous, false);
    });

    it('runs the password sign-up listeners wired in createCore inside the sign-up transaction with the trusted callback URL', async () => {
      const server = get();
      const { client, projectId } = await createProject(server);
      const res = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: 'hook@example.com',
        password: PASSWORD,
        verification_callback_url: 'http://localhost:3000/handler/email-verification',
      });
      assert.equal(res.status, 200, res.text);
      const calls = hookCalls.filter((c) => c.projectId === projectId);
      assert.deepEqual(calls, [
        { projectId, userId: res.body.user_id, url: 'http://localhost:3000/handler/email-verification', inTransaction: true },
      ]);
      // This server's own origin is always trusted (hosted pages).
      const own = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: 'own@example.com',
        password: PASSWORD,
        verification_callback_url: `${server.url}/handler/email-verification`,
      });
      assert.equal(own.status, 200, own.text);
    });

    it('creates the personal team on sign-up when create_team_on_sign_up is set', async () => {
      const server = get();
      const { client } = await createProject(server, { create_team_on_sign_up: true });
      const tokens = await signUp(server, client, 'team@example.com');
      const me = await api(server, 'GET', '/users/me', { ...client, accessToken: tokens.access_token });
      assert.equal(me.body.selected_team.display_name, "team@example.com's Team");
    });

    it('checks sign-up in order: PASSWORD_AUTHENTICATION_NOT_ENABLED, REDIRECT_URL_NOT_WHITELISTED, SIGN_UP_NOT_ENABLED, password length', async () => {
      const server = get();
      const off = await createProject(server, { credential_enabled: false, sign_up_enabled: false });
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', off.client, {
          email: 'a@example.com',
          password: 'short',
          verification_callback_url: 'https://evil.example.org/cb',
        }),
        'PASSWORD_AUTHENTICATION_NOT_ENABLED',
        400,
      );

      const closed = await createProject(server, { sign_up_enabled: false, allow_localhost: false });
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', closed.client, {
          email: 'a@example.com',
          password: 'short',
          verification_callback_url: 'https://evil.example.org/cb',
        }),
        'REDIRECT_URL_NOT_WHITELISTED',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', closed.client, {
          email: 'a@example.com',
          password: 'short',
          verification_callback_url: 'http://localhost:3000/cb',
        }),
        'REDIRECT_URL_NOT_WHITELISTED',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', closed.client, { email: 'a@example.com', password: 'short' }),
        'SIGN_UP_NOT_ENABLED',
        400,
      );

      const open = await createProject(server, { domains: [{ domain: 'https://*.example.com', handler_path: '/handler' }] });
      const short = await api(server, 'POST', '/auth/password/sign-up', open.client, {
        email: 'a@example.com',
        password: 'short',
        verification_callback_url: 'https://app.example.com/cb',
      });
      assertKnownError(short, 'PASSWORD_TOO_SHORT', 400);
      assert.deepEqual(short.body.details, { min_length: 8 });
      const long = await api(server, 'POST', '/auth/password/sign-up', open.client, { email: 'a@example.com', password: 'x'.repeat(71) });
      assertKnownError(long, 'PASSWORD_TOO_LONG', 400);
      assert.deepEqual(long.body.details, { maxLength: 70 });
      assert.equal(
        (
          await api(server, 'POST', '/auth/password/sign-up', open.client, {
            email: 'a@example.com',
            password: 'velvet tractor 93 and a purple umbrella over the quiet harbour lights!',
          })
        ).status,
        200,
      );
    });

    it('rejects a second sign-up with the same email with USER_EMAIL_ALREADY_EXISTS', async () => {
      const server = get();
      const { client } = await createProject(server);
      await signUp(server, client, 'dup@example.com');
      const res = await api(server, 'POST', '/auth/password/sign-up', client, { email: 'DUP@example.com', password: PASSWORD });
      assertKnownError(res, 'USER_EMAIL_ALREADY_EXISTS', 409);
      assert.equal(res.body.details.email, 'dup@example.com');
    });

    it('upgrades an anonymous user in place when it signs up with a password', async () => {
      const server = get();
      const { client } = await createProject(server, { sign_up_enabled: true });
      const anon = await api(server, 'POST', '/auth/anonymous/sign-up', client);
      assert.equal(anon.status, 200, anon.text);
      const anonCaller = { ...client, accessToken: anon.body.access_token, headers: { 'x-stack-allow-anonymous-user': 'true' } };
      const up = await api(server, 'POST', '/auth/password/sign-up', anonCaller, { email: 'upgraded@example.com', password: PASSWORD });
      assert.equal(up.status, 200, up.text);
      assert.equal(up.body.user_id, anon.body.user_id);
      const me = await api(server, 'GET', '/users/me', { ...client, accessToken: up.body.access_token });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.id, anon.body.user_id);
      assert.equal(me.body.is_anonymous, false);
      assert.equal(me.body.is_restricted, false);
      assert.equal(me.body.primary_email, 'upgraded@example.com');
      assert.equal(decodeJwt(up.body.access_token).aud, client.projectId);
    });

    it('signs in with the right password, and answers EMAIL_PASSWORD_MISMATCH for a wrong password, an unknown email or a user without password', async () => {
      const server = get();
      const { client, server: serverCaller } = await createProject(server);
      const { user_id } = await signUp(server, client, 'bob@example.com');
      const ok = await api(server, 'POST', '/auth/password/sign-in', client, { email: 'BOB@example.com', password: PASSWORD });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.user_id, user_id);
      assert.equal(decodeJwt(ok.body.access_token).sub, user_id);
      const wrong = await api(server, 'POST', '/auth/password/sign-in', client, { email: 'bob@example.com', password: 'wrong password' });
      assertKnownError(wrong, 'EMAIL_PASSWORD_MISMATCH', 400);
      const unknown = await api(server, 'POST', '/auth/password/sign-in', client, { email: 'nobody@example.com', password: PASSWORD });
      assertKnownError(unknown, 'EMAIL_PASSWORD_MISMATCH', 400);
      assert.equal(unknown.body.error, wrong.body.error);
      const created = await api(server, 'POST', '/users', serverCaller, { primary_email: 'nopass@example.com' });
      assert.equal(created.status, 201, created.text);
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-in', client, { email: 'nopass@example.com', password: PASSWORD }),
        'EMAIL_PASSWORD_MISMATCH',
        400,
      );
    });

    it('verifies an imported bcrypt hash and upgrades it to argon2id on the next successful sign-in', async () => {
      const server = get();
      const { client, server: serverCaller } = await createProject(server);
      const hash = bcrypt.hashSync(PASSWORD, 4);
      const created = await api(server, 'POST', '/users', serverCaller, { primary_email: 'imported@example.com', password_hash: hash });
      assert.equal(created.status, 201, created.text);
      const db = server.gatehouse.core.runtime.db;
      const before = await db.selectFrom('users').select('password_hash').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.equal(before.password_hash, hash);
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-in', client, { email: 'imported@example.com', password: 'not the password' }),
        'EMAIL_PASSWORD_MISMATCH',
      );
      const stillBcrypt = await db.selectFrom('users').select('password_hash').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.equal(stillBcrypt.password_hash, hash);
      const ok = await api(server, 'POST', '/auth/password/sign-in', client, { email: 'imported@example.com', password: PASSWORD });
      assert.equal(ok.status, 200, ok.text);
      const after = await db.selectFrom('users').select('password_hash').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      // At the core's cost (the test servers' cheap one; hash-formats.test.ts checks the real one).
      const cost = server.gatehouse.core.runtime.passwordHashCost;
      assert.ok(after.password_hash?.startsWith(`$argon2id$v=19$m=${cost.memoryCost},p=1,t=${cost.timeCost}$`), after.password_hash ?? '');
      assert.equal(
        (await api(server, 'POST', '/auth/password/sign-in', client, { email: 'imported@example.com', password: PASSWORD })).status,
        200,
      );
    });

    it('answers PASSWORD_AUTHENTICATION_NOT_ENABLED for sign-in, update and set when credential sign-in is off', async () => {
      const server = get();
      const { client, admin } = await createProject(server);
      const tokens = await signUp(server, client, 'off@example.com');
      const patch = await api(server, 'PATCH', '/internal/projects/current', admin, { config: { credential_enabled: false } });
      assert.equal(patch.status, 200, patch.text);
      const user = { ...client, accessToken: tokens.access_token };
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-in', client, { email: 'off@example.com', password: PASSWORD }),
        'PASSWORD_AUTHENTICATION_NOT_ENABLED',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/update', user, { old_password: PASSWORD, new_password: 'another password' }),
        'PASSWORD_AUTHENTICATION_NOT_ENABLED',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/set', user, { password: 'another password' }),
        'PASSWORD_AUTHENTICATION_NOT_ENABLED',
        400,
      );
    });

    it('updates the password, keeping the current session and revoking the others', async () => {
      const server = get();
      const { client } = await createProject(server);
      const first = await signUp(server, client, 'carol@example.com');
      const second = await api(server, 'POST', '/auth/password/sign-in', client, { email: 'carol@example.com', password: PASSWORD });
      const me = { ...client, accessToken: first.access_token, refreshToken: first.refresh_token };
      const res = await api(server, 'POST', '/auth/password/update', me, { old_password: PASSWORD, new_password: 'a brand new password' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true });
      const kept = await api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken: first.refresh_token });
      assert.equal(kept.status, 200, kept.text);
      assertKnownError(
        await api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken: second.body.refresh_token }),
        'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
        401,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-in', client, { email: 'carol@example.com', password: PASSWORD }),
        'EMAIL_PASSWORD_MISMATCH',
      );
      assert.equal(
        (await api(server, 'POST', '/auth/password/sign-in', client, { email: 'carol@example.com', password: 'a brand new password' }))
          .status,
        200,
      );
    });

    it('refuses a password update with a wrong old password, a bad new one, no password or no user', async () => {
      const server = get();
      const { client, server: serverCaller } = await createProject(server);
      const tokens = await signUp(server, client, 'dave@example.com');
      const me = { ...client, accessToken: tokens.access_token };
      assertKnownError(
        await api(server, 'POST', '/auth/password/update', me, { old_password: 'wrong password', new_password: 'a brand new password' }),
        'PASSWORD_CONFIRMATION_MISMATCH',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/update', me, { old_password: PASSWORD, new_password: 'short' }),
        'PASSWORD_TOO_SHORT',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/update', me, { old_password: PASSWORD, new_password: 'x'.repeat(71) }),
        'PASSWORD_TOO_LONG',
        400,
      );
      // Upstream declares auth.user in the request schema.
      const noUser = await api(server, 'POST', '/auth/password/update', client, {
        old_password: PASSWORD,
        new_password: 'a brand new password',
      });
      assertKnownError(noUser, 'SCHEMA_ERROR', 400);
      assert.deepEqual(noUser.body, {
        code: 'SCHEMA_ERROR',
        details: { message: 'Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined' },
        error: 'Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined',
      });
      assertKnownError(await api(server, 'POST', '/auth/password/update', me, { old_password: PASSWORD }), 'SCHEMA_ERROR', 400);
      const created = await api(server, 'POST', '/users', serverCaller, {});
      const session = await api(server, 'POST', '/auth/sessions', serverCaller, { user_id: created.body.id });
      assertKnownError(
        await api(
          server,
          'POST',
          '/auth/password/update',
          { ...client, accessToken: session.body.access_token },
          { old_password: PASSWORD, new_password: 'a brand new password' },
        ),
        'USER_DOES_NOT_HAVE_PASSWORD',
        400,
      );
    });

    it('sets a password for a user without one, and answers 400 text when one is set', async () => {
      const server = get();
      const { client, server: serverCaller } = await createProject(server);
      const created = await api(server, 'POST', '/users', serverCaller, { primary_email: 'erin@example.com' });
      const session = await api(server, 'POST', '/auth/sessions', serverCaller, { user_id: created.body.id });
      const me = { ...client, accessToken: session.body.access_token };
      assertKnownError(await api(server, 'POST', '/auth/password/set', me, { password: 'short' }), 'PASSWORD_TOO_SHORT', 400);
      const noUser = await api(server, 'POST', '/auth/password/set', client, { password: PASSWORD });
      assertKnownError(noUser, 'SCHEMA_ERROR', 400);
      assert.deepEqual(noUser.body, {
        code: 'SCHEMA_ERROR',
        details: { message: 'Request validation failed on POST /api/v1/auth/password/set:\n  - auth.user must be defined' },
        error: 'Request validation failed on POST /api/v1/auth/password/set:\n  - auth.user must be defined',
      });
      const ok = await api(server, 'POST', '/auth/password/set', me, { password: PASSWORD });
      assert.deepEqual(ok.body, { success: true });
      assert.equal(
        (await api(server, 'POST', '/auth/password/sign-in', client, { email: 'erin@example.com', password: PASSWORD })).status,
        200,
      );
      const again = await api(server, 'POST', '/auth/password/set', me, { password: 'another password' });
      assert.equal(again.status, 400);
      assert.equal(again.headers.get('x-stack-known-error'), null);
      assert.match(again.text, /already has a password/);
    });

    it('works at every access level with keys, and rejects bad input and missing access type', async () => {
      const server = get();
      const { admin, projectId } = await createProject(server);
      const keys = await createProjectKeys(server, admin);
      const client = { projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey };
      const srv = { projectId, accessType: 'server' as const, secretServerKey: keys.secretServerKey };
      const adm = { projectId, accessType: 'admin' as const, superSecretAdminKey: keys.superSecretAdminKey };
      for (const [i, caller] of [client, srv, adm].entries()) {
        const res = await api(server, 'POST', '/auth/password/sign-up', caller, { email: `level${i}@example.com`, password: PASSWORD });
        assert.equal(res.status, 200, res.text);
        assert.equal(
          (await api(server, 'POST', '/auth/password/sign-in', caller, { email: `level${i}@example.com`, password: PASSWORD })).status,
          200,
        );
      }
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', { projectId }, { email: 'x@example.com', password: PASSWORD }),
        'ACCESS_TYPE_REQUIRED',
        400,
      );
      assertKnownError(
        await api(
          server,
          'POST',
          '/auth/password/sign-up',
          { ...client, publishableClientKey: 'pck_wrong' },
          { email: 'x@example.com', password: PASSWORD },
        ),
        'INVALID_PUBLISHABLE_CLIENT_KEY',
        401,
      );
      const bad = await api(server, 'POST', '/auth/password/sign-up', client, { email: 'not-an-email', password: PASSWORD, extra: 1 });
      assertKnownError(bad, 'SCHEMA_ERROR', 400);
      assert.match(bad.body.error, /body\.email must be a valid email/);
      assert.match(bad.body.error, /extra/);
      assertKnownError(await api(server, 'POST', '/auth/password/sign-in', client, { email: 'x@example.com' }), 'SCHEMA_ERROR', 400);
      assertKnownError(await api(server, 'POST', '/auth/password/set', client, { password: 12345678 }), 'SCHEMA_ERROR', 400);
    });
  },
  { hooks: { passwordSignUp: [recordSignUp] } },
);
