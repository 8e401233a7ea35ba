import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { generateTotp } from './index.ts';
import { passwordAttempt, totpUser } from '../../test/helpers/mfa-users.ts';

describeWithServer('MFA recovery codes (Gatehouse extension)', (get) => {
  it('creates ten distinct codes once and signs in with one of them, once', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, accessToken, userId } = await totpUser(server, client);
    const me = { ...client, accessToken };
    const created = await api(server, 'POST', '/auth/mfa/recovery-codes', me);
    assert.equal(created.status, 200, created.text);
    const codes: string[] = created.body.recovery_codes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    assert.deepEqual((await api(server, 'GET', '/auth/mfa/recovery-codes', me)).body, { unused_count: 10 });

    // Typed loosely: upper case, without dashes.
    const typed = codes[3]!.replaceAll('-', '').toUpperCase();
    const done = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'recovery_code', recovery_code: typed, code: await passwordAttempt(server, client, email) });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.user_id, userId);
    assert.deepEqual((await api(server, 'GET', '/auth/mfa/recovery-codes', me)).body, { unused_count: 9 });

    const again = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'recovery_code', recovery_code: codes[3], code: await passwordAttempt(server, client, email) });
    assertKnownError(again, 'INVALID_TOTP_CODE', 400);
  });

  it('refuses a wrong recovery code, and another user\'s code, with INVALID_TOTP_CODE', async () => {
    const server = get();
    const { client } = await createProject(server);
    const alice = await totpUser(server, client);
    const bob = await totpUser(server, client);
    const bobCodes = (await api(server, 'POST', '/auth/mfa/recovery-codes', { ...client, accessToken: bob.accessToken })).body.recovery_codes;
    await api(server, 'POST', '/auth/mfa/recovery-codes', { ...client, accessToken: alice.accessToken });
    const attempt = await passwordAttempt(server, client, alice.email);
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'recovery_code', recovery_code: bobCodes[0], code: attempt }), 'INVALID_TOTP_CODE', 400);
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'recovery_code', recovery_code: 'aaaa-bbbb-cccc-dddd', code: attempt }), 'INVALID_TOTP_CODE', 400);
    // The attempt code survives the failures: the TOTP still completes it.
    const ok = await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'totp', totp: generateTotp(alice.secret, server.clock.now()), code: attempt });
    assert.equal(ok.status, 200, ok.text);
  });

  it('voids earlier codes when new ones are created, and all codes when the TOTP secret changes', async () => {
    const server = get();
    const { client } = await createProject(server);
    const { email, accessToken } = await totpUser(server, client);
    const me = { ...client, accessToken };
    const first = (await api(server, 'POST', '/auth/mfa/recovery-codes', me)).body.recovery_codes;
    const second = (await api(server, 'POST', '/auth/mfa/recovery-codes', me)).body.recovery_codes;
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'recovery_code', recovery_code: first[0], code: await passwordAttempt(server, client, email) }), 'INVALID_TOTP_CODE', 400);

    const newSecret = Buffer.alloc(20, 7).toString('base64');
    const patched = await api(server, 'PATCH', '/users/me', me, { totp_secret_base64: newSecret });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual((await api(server, 'GET', '/auth/mfa/recovery-codes', me)).body, { unused_count: 0 });
    assertKnownError(await api(server, 'POST', '/auth/mfa/sign-in', client, { type: 'recovery_code', recovery_code: second[0], code: await passwordAttempt(server, client, email) }), 'INVALID_TOTP_CODE', 400);
  });

  it('refuses to create codes without a user or without TOTP', async () => {
    const server = get();
    const { client } = await createProject(server);
    assertKnownError(await api(server, 'POST', '/auth/mfa/recovery-codes', client), 'USER_AUTHENTICATION_REQUIRED', 401);
    assertKnownError(await api(server, 'GET', '/auth/mfa/recovery-codes', client), 'USER_AUTHENTICATION_REQUIRED', 401);
    const plain = await api(server, 'POST', '/auth/password/sign-up', client, { email: `plain-${Date.now()}@example.com`, password: 'correct horse battery' });
    const res = await api(server, 'POST', '/auth/mfa/recovery-codes', { ...client, accessToken: plain.body.access_token });
    assert.equal(res.status, 400);
    assert.match(res.text, /Turn on TOTP/);
  });
});
