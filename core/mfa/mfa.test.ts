import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { decodeJwt } from 'jose';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver } from '../../test/helpers/smtp.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { generateTotp } from './index.ts';
import { PASSWORD, passwordAttempt, totpUser } from '../../test/helpers/mfa-users.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

async function sessionCount(server: TestServer, srv: Caller, userId: string): Promise<number> {
  const res = await api(server, 'GET', `/auth/sessions?user_id=${userId}`, srv);
  assert.equal(res.status, 200, res.text);
  return res.body.items.length;
}

describeWithServer('MFA sign-in', (get) => {
  it('answers a password sign-in of a TOTP user with MULTI_FACTOR_AUTHENTICATION_REQUIRED and no session, then signs in with the TOTP', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server);
    const { email, secret, userId } = await totpUser(server, client);
    const before = await sessionCount(server, srv, userId);
    const attempt = await passwordAttempt(server, client, email);
    assert.equal(await sessionCount(server, srv, userId), before, 'no session was created for the first factor alone');

    const done = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: attempt });
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(Object.keys(done.body).sort(), ['access_token', 'is_new_user', 'refresh_token', 'user_id']);
    assert.equal(done.body.user_id, userId);
    assert.equal(done.body.is_new_user, false);
    assert.equal(decodeJwt(done.body.access_token).requires_totp_mfa, true);
    const me = await api(server, 'GET', '/users/me', { ...client, accessToken: done.body.access_token });
    assert.equal(me.body.id, userId);
    const refreshed = await api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken: done.body.refresh_token });
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal(await sessionCount(server, srv, userId), before + 1);
  });

  it('refuses a second use of an attempt code with VERIFICATION_CODE_ALREADY_USED', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const attempt = await passwordAttempt(server, client, email);
    const first = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: attempt });
    assert.equal(first.status, 200, first.text);
    server.clock.advance(30_000);
    const again = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: attempt });
    assertKnownError(again, 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  it('answers a wrong TOTP with INVALID_TOTP_CODE and keeps the attempt code for a retry', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const attempt = await passwordAttempt(server, client, email);
    const right = generateTotp(secret, server.clock.now());
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: wrong, code: attempt }), 'INVALID_TOTP_CODE', 400);
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: 'abcdef', code: attempt }), 'INVALID_TOTP_CODE', 400);
    const ok = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: right, code: attempt });
    assert.equal(ok.status, 200, ok.text);
  });

  it('stops an attempt code after five tries with VERIFICATION_CODE_MAX_ATTEMPTS_REACHED, even for the right TOTP', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const attempt = await passwordAttempt(server, client, email);
    for (let i = 0; i < 5; i++) {
      assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: '000000', code: attempt }), 'INVALID_TOTP_CODE', 400);
    }
    const right = generateTotp(secret, server.clock.now());
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: right, code: attempt }), 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
  });

  it('refuses a replayed TOTP code with a fresh attempt code, and accepts the next step\'s code', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const totp = generateTotp(secret, server.clock.now());
    const first = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp, code: await passwordAttempt(server, client, email) });
    assert.equal(first.status, 200, first.text);
    const replay = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp, code: await passwordAttempt(server, client, email) });
    assertKnownError(replay, 'INVALID_TOTP_CODE', 400);
    // The code of the step before, still inside the ±1 window, is refused too: its step is spent.
    const previous = generateTotp(secret, server.clock.now() - 30_000);
    if (previous !== totp) {
      assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: previous, code: await passwordAttempt(server, client, email) }), 'INVALID_TOTP_CODE', 400);
    }
    server.clock.advance(30_000);
    const next = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: await passwordAttempt(server, client, email) });
    assert.equal(next.status, 200, next.text);
  });

  it('accepts a code of the neighbouring step (clock drift) but not two steps away', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const now = server.clock.now();
    const twoBack = generateTotp(secret, now - 60_000);
    const candidates = [generateTotp(secret, now - 30_000), generateTotp(secret, now), generateTotp(secret, now + 30_000)];
    if (!candidates.includes(twoBack)) {
      assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: twoBack, code: await passwordAttempt(server, client, email) }), 'INVALID_TOTP_CODE', 400);
    }
    const behind = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, now - 30_000), code: await passwordAttempt(server, client, email) });
    assert.equal(behind.status, 200, behind.text);
  });

  it('expires an attempt code after five minutes', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const attempt = await passwordAttempt(server, client, email);
    server.clock.advance(5 * 60_000 + 1);
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: attempt }), 'VERIFICATION_CODE_EXPIRED', 400);
  });

  it('does not accept an attempt code in another project', async () => {
    const server = get();
    const { client } = await createProject(server);
    const other = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const attempt = await passwordAttempt(server, client, email);
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', other.client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: attempt }), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });

  it('checks an attempt code without using it', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const attempt = await passwordAttempt(server, client, email);
    const checked = await api(server, 'POST', '/auth/mfa/sign-in/check-code', client, { code: attempt });
    assert.deepEqual(checked.body, { is_code_valid: true });
    const done = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: attempt });
    assert.equal(done.status, 200, done.text);
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in/check-code', client, { code: attempt }), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  it('signs a user in with tokens at once again after TOTP is turned off', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, secret } = await totpUser(server, client);
    const attempt = await passwordAttempt(server, client, email);
    const done = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: attempt });
    const off = await api(server, 'PATCH', '/users/me', { ...client, accessToken: done.body.access_token }, { totp_secret_base64: null });
    assert.equal(off.body.requires_totp_mfa, false);
    const plain = await api(server, 'POST', '/auth/password/sign-in', client, { email, password: PASSWORD });
    assert.equal(plain.status, 200, plain.text);
    assert.ok(plain.body.access_token);
  });

  it('gives no tokens for an OTP sign-in of a TOTP user, spends the OTP, and completes with the TOTP', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server, { magic_link_enabled: true });
    const { email, secret, userId } = await totpUser(server, client, srv);
    const before = await sessionCount(server, srv, userId);
    const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' });
    assert.equal(sent.status, 200, sent.text);
    const mail = await smtp.waitFor(email);
    const otp = mail.subject.slice(-6);
    const res = await api(server, 'POST', '/auth/otp/sign-in', client, { code: otp + sent.body.nonce });
    assertKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    assert.equal(res.body.access_token, undefined);
    assert.equal(await sessionCount(server, srv, userId), before);
    assertKnownError(await api(server, 'POST', '/auth/otp/sign-in', client, { code: otp + sent.body.nonce }), 'VERIFICATION_CODE_ALREADY_USED', 409);
    const done = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: res.body.details.attempt_code });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.user_id, userId);
    assert.equal(done.body.is_new_user, false);
  });

  it('gives no tokens for a magic-link sign-in of a TOTP user', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server, { magic_link_enabled: true });
    const { email, secret, userId } = await totpUser(server, client, srv);
    const before = await sessionCount(server, srv, userId);
    await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' });
    const code = codeFromEmail(await smtp.waitFor(email));
    const res = await api(server, 'POST', '/auth/otp/sign-in', client, { code });
    assertKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    assert.equal(await sessionCount(server, srv, userId), before);
    const wrong = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: '12345', code: res.body.details.attempt_code });
    assertKnownError(wrong, 'INVALID_TOTP_CODE', 400);
    const done = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: res.body.details.attempt_code });
    assert.equal(done.status, 200, done.text);
    assert.equal(await sessionCount(server, srv, userId), before + 1);
  });

  it('stores the TOTP secret encrypted and bound to its user, and still reads a plaintext one', async () => {
    const server = get();
    const { client, server: srv } = await createProject(server);
    const alice = await totpUser(server, client);
    const bob = await totpUser(server, client);
    const db = server.gatehouse.core.runtime.db;
    const row = async (id: string) => (await db.selectFrom('users').select('totp_secret_base64').where('id', '=', id).executeTakeFirstOrThrow()).totp_secret_base64!;
    const sealed = await row(alice.userId);
    assert.match(sealed, /^v1\./);
    assert.equal(sealed.includes(alice.secret), false, 'the secret is not stored in the clear');
    assert.equal(Buffer.from(sealed).includes(Buffer.from(alice.secret, 'base64')), false);

    // Alice's sealed secret copied onto Bob's row does not open for Bob.
    await db.updateTable('users').set({ totp_secret_base64: sealed }).where('id', '=', bob.userId).execute();
    const bobTry = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(alice.secret, server.clock.now()), code: await passwordAttempt(server, client, bob.email) });
    assertKnownError(bobTry, 'INVALID_TOTP_CODE', 400);

    // A secret stored before encryption (plain base64) keeps working.
    await db.updateTable('users').set({ totp_secret_base64: alice.secret }).where('id', '=', alice.userId).execute();
    const plain = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(alice.secret, server.clock.now()), code: await passwordAttempt(server, client, alice.email) });
    assert.equal(plain.status, 200, plain.text);

    // A server-created user with a secret gets it sealed too, and can complete MFA.
    const secret = Buffer.alloc(20, 9).toString('base64');
    const email = `created-${Date.now()}@example.com`;
    const created = await api(server, 'POST', '/users', srv, { primary_email: email, password: PASSWORD, totp_secret_base64: secret });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.requires_totp_mfa, true);
    assert.match(await row(created.body.id), /^v1\./);
    const ok = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(secret, server.clock.now()), code: await passwordAttempt(server, client, email) });
    assert.equal(ok.status, 200, ok.text);
  });

  it('rejects a malformed second-factor body with SCHEMA_ERROR', async () => {
    const server = get();
    const { client } = await createProject(server);
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'sms', code: 'x' }), 'SCHEMA_ERROR', 400);
    const missing = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', code: 'x' });
    assertKnownError(missing, 'SCHEMA_ERROR', 400);
    assert.match(missing.body.error, /body\.totp must be defined when type is "totp"/);
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: 123456, code: 'x' }), 'SCHEMA_ERROR', 400);
  });
}, { smtpUrl: smtp.url });
