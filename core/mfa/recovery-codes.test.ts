import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { corePasswordAttempt, createCoreTotpUser, refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import { generateTotp } from './index.ts';

/** MFA recovery codes (a Gatehouse extension), in-process (test/helpers/core-client.ts). */
describeWithCore('MFA recovery codes (Gatehouse extension)', (get) => {
  it('creates ten distinct codes once and signs in with one of them, once', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const { email, accessToken, userId } = await createCoreTotpUser(t, client);
    const me = { ...client, accessToken };
    const created = await t.call<{ recovery_codes: string[] }>('mfa.createRecoveryCodes', me);
    const codes = created.recovery_codes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    assert.deepEqual(await t.call('mfa.getRecoveryCodeStatus', me), { unused_count: 10 });

    // Typed loosely: upper case, without dashes.
    const typed = codes[3]!.replaceAll('-', '').toUpperCase();
    const done = await t.call<{ user_id: string }>('mfa.signIn', client, {
      body: { type: 'recovery_code', recovery_code: typed, code: await corePasswordAttempt(t, client, email) },
    });
    assert.equal(done.user_id, userId);
    assert.deepEqual(await t.call('mfa.getRecoveryCodeStatus', me), { unused_count: 9 });

    const again = await t.refuses(
      'mfa.signIn',
      client,
      { body: { type: 'recovery_code', recovery_code: codes[3], code: await corePasswordAttempt(t, client, email) } },
      'INVALID_TOTP_CODE',
    );
    assert.equal(again.status, 400);
  });

  it("refuses a wrong recovery code, and another user's code, with INVALID_TOTP_CODE", async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const alice = await createCoreTotpUser(t, client);
    const bob = await createCoreTotpUser(t, client);
    const bobCodes = (await t.call<{ recovery_codes: string[] }>('mfa.createRecoveryCodes', { ...client, accessToken: bob.accessToken }))
      .recovery_codes;
    await t.call('mfa.createRecoveryCodes', { ...client, accessToken: alice.accessToken });
    const attempt = await corePasswordAttempt(t, client, alice.email);
    assert.equal(
      (
        await t.refuses(
          'mfa.signIn',
          client,
          { body: { type: 'recovery_code', recovery_code: bobCodes[0], code: attempt } },
          'INVALID_TOTP_CODE',
        )
      ).status,
      400,
    );
    assert.equal(
      (
        await t.refuses(
          'mfa.signIn',
          client,
          { body: { type: 'recovery_code', recovery_code: 'aaaa-bbbb-cccc-dddd', code: attempt } },
          'INVALID_TOTP_CODE',
        )
      ).status,
      400,
    );
    // The attempt code survives the failures: the TOTP still completes it.
    const ok = await t.call<{ user_id: string }>('mfa.signIn', client, {
      body: { type: 'totp', totp: generateTotp(alice.secret, t.clock.now()), code: attempt },
    });
    assert.equal(ok.user_id, alice.userId);
  });

  it('voids earlier codes when new ones are created, and all codes when the TOTP secret changes', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const { email, accessToken } = await createCoreTotpUser(t, client);
    const me = { ...client, accessToken };
    const first = (await t.call<{ recovery_codes: string[] }>('mfa.createRecoveryCodes', me)).recovery_codes;
    const second = (await t.call<{ recovery_codes: string[] }>('mfa.createRecoveryCodes', me)).recovery_codes;
    await t.refuses(
      'mfa.signIn',
      client,
      { body: { type: 'recovery_code', recovery_code: first[0], code: await corePasswordAttempt(t, client, email) } },
      'INVALID_TOTP_CODE',
    );

    const newSecret = Buffer.alloc(20, 7).toString('base64');
    await t.call('users.updateCurrent', me, { body: { totp_secret_base64: newSecret } });
    assert.deepEqual(await t.call('mfa.getRecoveryCodeStatus', me), { unused_count: 0 });
    await t.refuses(
      'mfa.signIn',
      client,
      { body: { type: 'recovery_code', recovery_code: second[0], code: await corePasswordAttempt(t, client, email) } },
      'INVALID_TOTP_CODE',
    );
  });

  it('refuses to create codes without a user or without TOTP', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    assert.equal((await t.refuses('mfa.createRecoveryCodes', client, {}, 'USER_AUTHENTICATION_REQUIRED')).status, 401);
    assert.equal((await t.refuses('mfa.getRecoveryCodeStatus', client, {}, 'USER_AUTHENTICATION_REQUIRED')).status, 401);
    const plain = await t.call<{ access_token: string }>('authPassword.signUp', client, {
      body: { email: `plain-${Date.now()}@example.com`, password: 'correct horse battery' },
    });
    await refusesWithStatus(
      t,
      'mfa.createRecoveryCodes',
      { ...client, accessToken: plain.access_token },
      {},
      'bad-request',
      'Turn on TOTP multi-factor authentication before creating recovery codes.',
    );
  });
});
