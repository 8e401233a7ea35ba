import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { decodeJwt } from 'jose';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { corePasswordAttempt, createCoreTotpUser, MFA_PASSWORD as PASSWORD } from '../../test/helpers/core-fixtures-b.ts';
import { codeFromEmail, startSmtpReceiver } from '../../test/helpers/smtp.ts';
import type { Credentials } from '../index.ts';
import { generateTotp } from './index.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

async function sessionCount(t: TestCore, srv: Credentials, userId: string): Promise<number> {
  const res = await t.call<any>('sessions.list', srv, { query: { user_id: userId } });
  return res.items.length;
}

/** MFA sign-in, in-process (test/helpers/core-client.ts), emails through a test SMTP receiver. */
describeWithCore(
  'MFA sign-in',
  (get) => {
    it('answers a password sign-in of a TOTP user with MULTI_FACTOR_AUTHENTICATION_REQUIRED and no session, then signs in with the TOTP', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t);
      const { email, secret, userId } = await createCoreTotpUser(t, client);
      const before = await sessionCount(t, srv, userId);
      const attempt = await corePasswordAttempt(t, client, email);
      assert.equal(await sessionCount(t, srv, userId), before, 'no session was created for the first factor alone');

      const done = await t.call<any>('mfa.signIn', client, {
        body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: attempt },
      });
      assert.deepEqual(Object.keys(done).sort(), ['access_token', 'is_new_user', 'refresh_token', 'user_id']);
      assert.equal(done.user_id, userId);
      assert.equal(done.is_new_user, false);
      assert.equal(decodeJwt(done.access_token).requires_totp_mfa, true);
      const me = await t.call<any>('users.getCurrent', { ...client, accessToken: done.access_token });
      assert.equal(me.id, userId);
      assert.equal(
        typeof (await t.call<any>('sessions.refreshCurrent', { ...client, refreshToken: done.refresh_token })).access_token,
        'string',
      );
      assert.equal(await sessionCount(t, srv, userId), before + 1);
    });

    it('refuses a second use of an attempt code with VERIFICATION_CODE_ALREADY_USED', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const attempt = await corePasswordAttempt(t, client, email);
      assert.equal(
        typeof (
          await t.call<any>('mfa.signIn', client, { body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: attempt } })
        ).access_token,
        'string',
      );
      t.clock.advance(30_000);
      const again = await t.refuses(
        'mfa.signIn',
        client,
        { body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: attempt } },
        'VERIFICATION_CODE_ALREADY_USED',
      );
      assert.equal(again.status, 409);
    });

    it('answers a wrong TOTP with INVALID_TOTP_CODE and keeps the attempt code for a retry', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const attempt = await corePasswordAttempt(t, client, email);
      const right = generateTotp(secret, t.clock.now());
      const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
      assert.equal(
        (await t.refuses('mfa.signIn', client, { body: { type: 'totp', totp: wrong, code: attempt } }, 'INVALID_TOTP_CODE')).status,
        400,
      );
      assert.equal(
        (await t.refuses('mfa.signIn', client, { body: { type: 'totp', totp: 'abcdef', code: attempt } }, 'INVALID_TOTP_CODE')).status,
        400,
      );
      assert.equal(
        typeof (await t.call<any>('mfa.signIn', client, { body: { type: 'totp', totp: right, code: attempt } })).access_token,
        'string',
      );
    });

    it('stops an attempt code after five tries with VERIFICATION_CODE_MAX_ATTEMPTS_REACHED, even for the right TOTP', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const attempt = await corePasswordAttempt(t, client, email);
      for (let i = 0; i < 5; i++) {
        assert.equal(
          (await t.refuses('mfa.signIn', client, { body: { type: 'totp', totp: '000000', code: attempt } }, 'INVALID_TOTP_CODE')).status,
          400,
        );
      }
      const right = generateTotp(secret, t.clock.now());
      assert.equal(
        (
          await t.refuses(
            'mfa.signIn',
            client,
            { body: { type: 'totp', totp: right, code: attempt } },
            'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED',
          )
        ).status,
        400,
      );
    });

    it("refuses a replayed TOTP code with a fresh attempt code, and accepts the next step's code", async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const totp = generateTotp(secret, t.clock.now());
      assert.equal(
        typeof (
          await t.call<any>('mfa.signIn', client, { body: { type: 'totp', totp, code: await corePasswordAttempt(t, client, email) } })
        ).access_token,
        'string',
      );
      const replay = await t.refuses(
        'mfa.signIn',
        client,
        { body: { type: 'totp', totp, code: await corePasswordAttempt(t, client, email) } },
        'INVALID_TOTP_CODE',
      );
      assert.equal(replay.status, 400);
      // The code of the step before, still inside the ±1 window, is refused too: its step is spent.
      const previous = generateTotp(secret, t.clock.now() - 30_000);
      if (previous !== totp) {
        assert.equal(
          (
            await t.refuses(
              'mfa.signIn',
              client,
              { body: { type: 'totp', totp: previous, code: await corePasswordAttempt(t, client, email) } },
              'INVALID_TOTP_CODE',
            )
          ).status,
          400,
        );
      }
      t.clock.advance(30_000);
      assert.equal(
        typeof (
          await t.call<any>('mfa.signIn', client, {
            body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: await corePasswordAttempt(t, client, email) },
          })
        ).access_token,
        'string',
      );
    });

    it('accepts a code of the neighbouring step (clock drift) but not two steps away', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const now = t.clock.now();
      const twoBack = generateTotp(secret, now - 60_000);
      const candidates = [generateTotp(secret, now - 30_000), generateTotp(secret, now), generateTotp(secret, now + 30_000)];
      if (!candidates.includes(twoBack)) {
        assert.equal(
          (
            await t.refuses(
              'mfa.signIn',
              client,
              { body: { type: 'totp', totp: twoBack, code: await corePasswordAttempt(t, client, email) } },
              'INVALID_TOTP_CODE',
            )
          ).status,
          400,
        );
      }
      assert.equal(
        typeof (
          await t.call<any>('mfa.signIn', client, {
            body: { type: 'totp', totp: generateTotp(secret, now - 30_000), code: await corePasswordAttempt(t, client, email) },
          })
        ).access_token,
        'string',
      );
    });

    it('expires an attempt code after five minutes', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const attempt = await corePasswordAttempt(t, client, email);
      t.clock.advance(5 * 60_000 + 1);
      assert.equal(
        (
          await t.refuses(
            'mfa.signIn',
            client,
            { body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: attempt } },
            'VERIFICATION_CODE_EXPIRED',
          )
        ).status,
        400,
      );
    });

    it('does not accept an attempt code in another project', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const other = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const attempt = await corePasswordAttempt(t, client, email);
      assert.equal(
        (
          await t.refuses(
            'mfa.signIn',
            other.client,
            { body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: attempt } },
            'VERIFICATION_CODE_NOT_FOUND',
          )
        ).status,
        404,
      );
    });

    it('checks an attempt code without using it', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const attempt = await corePasswordAttempt(t, client, email);
      const checked = await t.call<any>('mfa.checkAttemptCode', client, { body: { code: attempt } });
      assert.deepEqual(checked, { is_code_valid: true });
      assert.equal(
        typeof (
          await t.call<any>('mfa.signIn', client, { body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: attempt } })
        ).access_token,
        'string',
      );
      assert.equal(
        (await t.refuses('mfa.checkAttemptCode', client, { body: { code: attempt } }, 'VERIFICATION_CODE_ALREADY_USED')).status,
        409,
      );
    });

    it('signs a user in with tokens at once again after TOTP is turned off', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const { email, secret } = await createCoreTotpUser(t, client);
      const attempt = await corePasswordAttempt(t, client, email);
      const done = await t.call<any>('mfa.signIn', client, {
        body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: attempt },
      });
      const off = await t.call<any>(
        'users.updateCurrent',
        { ...client, accessToken: done.access_token },
        { body: { totp_secret_base64: null } },
      );
      assert.equal(off.requires_totp_mfa, false);
      const plain = await t.call<any>('authPassword.signIn', client, { body: { email, password: PASSWORD } });
      assert.ok(plain.access_token);
    });

    it('gives no tokens for an OTP sign-in of a TOTP user, spends the OTP, and completes with the TOTP', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t, { magic_link_enabled: true });
      const { email, secret, userId } = await createCoreTotpUser(t, client, srv);
      const before = await sessionCount(t, srv, userId);
      const sent = await t.call<any>('authOtp.sendSignInCode', client, {
        body: { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
      });
      const mail = await smtp.waitFor(email);
      const otp = mail.subject.slice(-6);
      const res = await t.refuses('authOtp.signIn', client, { body: { code: otp + sent.nonce } }, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.details), ['attempt_code'], 'no tokens with the refusal');
      assert.equal(await sessionCount(t, srv, userId), before);
      assert.equal(
        (await t.refuses('authOtp.signIn', client, { body: { code: otp + sent.nonce } }, 'VERIFICATION_CODE_ALREADY_USED')).status,
        409,
      );
      const done = await t.call<any>('mfa.signIn', client, {
        body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: res.details.attempt_code },
      });
      assert.equal(done.user_id, userId);
      assert.equal(done.is_new_user, false);
    });

    it('gives no tokens for a magic-link sign-in of a TOTP user', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t, { magic_link_enabled: true });
      const { email, secret, userId } = await createCoreTotpUser(t, client, srv);
      const before = await sessionCount(t, srv, userId);
      await t.call<any>('authOtp.sendSignInCode', client, {
        body: { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
      });
      const code = codeFromEmail(await smtp.waitFor(email));
      const res = await t.refuses('authOtp.signIn', client, { body: { code } }, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
      assert.equal(res.status, 400);
      assert.equal(await sessionCount(t, srv, userId), before);
      const wrong = await t.refuses(
        'mfa.signIn',
        client,
        { body: { type: 'totp', totp: '12345', code: res.details.attempt_code } },
        'INVALID_TOTP_CODE',
      );
      assert.equal(wrong.status, 400);
      assert.equal(
        typeof (
          await t.call<any>('mfa.signIn', client, {
            body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: res.details.attempt_code },
          })
        ).access_token,
        'string',
      );
      assert.equal(await sessionCount(t, srv, userId), before + 1);
    });

    it('stores the TOTP secret encrypted and bound to its user, and still reads a plaintext one', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t);
      const alice = await createCoreTotpUser(t, client);
      const bob = await createCoreTotpUser(t, client);
      const db = t.core.runtime.db;
      const row = async (id: string) =>
        (await db.selectFrom('users').select('totp_secret_base64').where('id', '=', id).executeTakeFirstOrThrow()).totp_secret_base64!;
      const sealed = await row(alice.userId);
      assert.match(sealed, /^v1\./);
      assert.equal(sealed.includes(alice.secret), false, 'the secret is not stored in the clear');
      assert.equal(Buffer.from(sealed).includes(Buffer.from(alice.secret, 'base64')), false);

      // Alice's sealed secret copied onto Bob's row does not open for Bob.
      await db.updateTable('users').set({ totp_secret_base64: sealed }).where('id', '=', bob.userId).execute();
      const bobTry = await t.refuses(
        'mfa.signIn',
        client,
        { body: { type: 'totp', totp: generateTotp(alice.secret, t.clock.now()), code: await corePasswordAttempt(t, client, bob.email) } },
        'INVALID_TOTP_CODE',
      );
      assert.equal(bobTry.status, 400);

      // A secret stored before encryption (plain base64) keeps working.
      await db.updateTable('users').set({ totp_secret_base64: alice.secret }).where('id', '=', alice.userId).execute();
      assert.equal(
        typeof (
          await t.call<any>('mfa.signIn', client, {
            body: {
              type: 'totp',
              totp: generateTotp(alice.secret, t.clock.now()),
              code: await corePasswordAttempt(t, client, alice.email),
            },
          })
        ).access_token,
        'string',
      );

      // A server-created user with a secret gets it sealed too, and can complete MFA.
      const secret = Buffer.alloc(20, 9).toString('base64');
      const email = `created-${Date.now()}@example.com`;
      const created = await t.call<any>('users.create', srv, {
        body: { primary_email: email, password: PASSWORD, totp_secret_base64: secret },
      });
      assert.equal(created.requires_totp_mfa, true);
      assert.match(await row(created.id), /^v1\./);
      assert.equal(
        typeof (
          await t.call<any>('mfa.signIn', client, {
            body: { type: 'totp', totp: generateTotp(secret, t.clock.now()), code: await corePasswordAttempt(t, client, email) },
          })
        ).access_token,
        'string',
      );
    });

    it('rejects a malformed second-factor body with SCHEMA_ERROR', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      assert.equal((await t.refuses('mfa.signIn', client, { body: { type: 'sms', code: 'x' } }, 'SCHEMA_ERROR')).status, 400);
      const missing = await t.refuses('mfa.signIn', client, { body: { type: 'totp', code: 'x' } }, 'SCHEMA_ERROR');
      assert.equal(missing.status, 400);
      assert.match(missing.message, /body\.totp must be defined when type is "totp"/);
      assert.equal(
        (await t.refuses('mfa.signIn', client, { body: { type: 'totp', totp: 123456, code: 'x' } }, 'SCHEMA_ERROR')).status,
        400,
      );
    });
  },
  { smtpUrl: smtp.url },
);
