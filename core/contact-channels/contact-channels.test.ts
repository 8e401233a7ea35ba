import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { refusal } from '../../test/helpers/core-fixtures-b.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import type { Credentials } from '../index.ts';

/** Email verification and contact channels, in-process (test/helpers/core-client.ts), emails through a test SMTP receiver. */

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

async function signUp(t: TestCore, client: Credentials, email: string, callback?: string) {
  const res = await t.call<{ user_id: string; access_token: string }>('authPassword.signUp', client, {
    body: { email, password: 'correct horse battery', ...(callback ? { verification_callback_url: callback } : {}) },
  });
  return { userId: res.user_id, me: { ...client, accessToken: res.access_token } as Credentials };
}

describeWithCore(
  'email verification and contact channels',
  (get) => {
    it('sends a verification email on sign-up and verifies the primary email with its code', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const email = uniqueEmail();
      const { me } = await signUp(t, client, email, 'http://localhost:3000/handler/email-verification');
      const mail = await smtp.waitFor(email);
      assert.equal(mail.subject, 'Verify your email at New Project');
      const code = codeFromEmail(mail);
      assert.equal((await t.call<any>('users.getCurrent', me)).primary_email_verified, false);
      assert.deepEqual(await t.call('contactChannels.checkVerificationCode', client, { body: { code } }), { is_code_valid: true });
      assert.deepEqual(await t.call('contactChannels.verify', client, { body: { code } }), { success: true });
      assert.equal((await t.call<any>('users.getCurrent', me)).primary_email_verified, true);
      assert.equal((await t.refuses('contactChannels.verify', client, { body: { code } }, 'VERIFICATION_CODE_ALREADY_USED')).status, 409);
    });

    it('rejects an untrusted verification callback at sign-up', async () => {
      const t = get();
      const { client } = await createCoreProject(t, { allow_localhost: false });
      const refused = await t.refuses(
        'authPassword.signUp',
        client,
        { body: { email: uniqueEmail(), password: 'correct horse battery', verification_callback_url: 'http://localhost:3000/x' } },
        'REDIRECT_URL_NOT_WHITELISTED',
      );
      assert.equal(refused.status, 400);
    });

    it('re-sends verification through the legacy route with its errors', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const email = uniqueEmail();
      const { me } = await signUp(t, client, email);
      const cb = 'http://localhost:3000/handler/email-verification';
      assert.equal(
        (
          await t.refuses(
            'contactChannels.sendVerificationCode',
            me,
            { body: { email: uniqueEmail(), callback_url: cb } },
            'EMAIL_IS_NOT_PRIMARY_EMAIL',
          )
        ).status,
        400,
      );
      // Upstream declares auth.user in the request schema.
      const noUser = await t.refuses('contactChannels.sendVerificationCode', client, { body: { email, callback_url: cb } }, 'SCHEMA_ERROR');
      const message = 'Request validation failed on POST /api/v1/contact-channels/send-verification-code:\n  - auth.user must be defined';
      assert.equal(noUser.status, 400);
      assert.deepEqual(noUser.details, { message });
      assert.equal(noUser.message, message);
      assert.equal(
        (
          await t.refuses(
            'contactChannels.sendVerificationCode',
            me,
            { body: { email, callback_url: 'https://evil.com/' } },
            'REDIRECT_URL_NOT_WHITELISTED',
          )
        ).status,
        400,
      );
      assert.deepEqual(
        await t.call('contactChannels.sendVerificationCode', me, { body: { email: email.toUpperCase(), callback_url: cb } }),
        { success: true },
      );
      await t.call('contactChannels.verify', client, { body: { code: codeFromEmail(await smtp.waitFor(email)) } });
      assert.equal(
        (await t.refuses('contactChannels.sendVerificationCode', me, { body: { email, callback_url: cb } }, 'EMAIL_ALREADY_VERIFIED'))
          .status,
        409,
      );
    });

    it('lists the primary email as a channel and manages other channels', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t);
      const email = uniqueEmail();
      const { me, userId } = await signUp(t, client, email);
      const list = await t.call<{ items: any[] }>('contactChannels.list', me, { query: { user_id: 'me' } });
      assert.equal(list.items.length, 1);
      const primary = list.items[0];
      assert.deepEqual(
        { ...primary, id: undefined },
        { id: undefined, user_id: userId, value: email, type: 'email', used_for_auth: true, is_verified: false, is_primary: true },
      );

      const second = uniqueEmail('second');
      const created = await t.call<any>('contactChannels.create', me, {
        body: { user_id: 'me', value: second, type: 'email', used_for_auth: false },
      });
      assert.equal(created.is_primary, false);
      const channel = { user_id: 'me', contact_channel_id: created.id as string };
      assert.equal((await t.call<any>('contactChannels.get', me, { params: channel })).value, second);

      assert.deepEqual(
        await t.call('contactChannels.sendChannelVerificationCode', me, {
          params: channel,
          body: { callback_url: 'http://localhost:3000/v' },
        }),
        { success: true },
      );
      await t.call('contactChannels.verify', client, { body: { code: codeFromEmail(await smtp.waitFor(second)) } });
      assert.equal((await t.call<any>('contactChannels.get', me, { params: channel })).is_verified, true);
      assert.equal(
        (
          await t.refuses(
            'contactChannels.sendChannelVerificationCode',
            me,
            { params: channel, body: { callback_url: 'http://localhost:3000/v' } },
            'EMAIL_ALREADY_VERIFIED',
          )
        ).status,
        409,
      );

      // Promote the second channel: the users row follows, the old primary stays as a channel (with its id).
      const promoted = await t.call<any>('contactChannels.update', me, {
        params: channel,
        body: { is_primary: true, used_for_auth: true },
      });
      assert.equal(promoted.is_primary, true);
      assert.equal(promoted.id, created.id, 'a promoted channel keeps its id (upstream)');
      const user = await t.call<any>('users.get', srv, { params: { user_id: userId } });
      assert.equal(user.primary_email, second);
      assert.equal(user.primary_email_verified, true);
      const after2 = await t.call<{ items: Array<{ value: string; is_primary: boolean }> }>('contactChannels.list', me, {
        query: { user_id: 'me' },
      });
      assert.deepEqual(
        after2.items.map((c) => [c.value, c.is_primary]),
        [
          [second, true],
          [email, false],
        ],
      );

      // Server may set is_verified; clients may not.
      assert.equal(
        (
          await t.refuses(
            'contactChannels.create',
            me,
            { body: { user_id: 'me', value: uniqueEmail(), type: 'email', used_for_auth: false, is_verified: true } },
            'SCHEMA_ERROR',
          )
        ).status,
        400,
      );
      const byServer = await t.call<any>('contactChannels.create', srv, {
        body: { user_id: userId, value: uniqueEmail(), type: 'email', used_for_auth: false, is_verified: true },
      });
      assert.equal(byServer.is_verified, true);

      const byServerChannel = { user_id: 'me', contact_channel_id: byServer.id as string };
      assert.deepEqual(await t.call('contactChannels.delete', me, { params: byServerChannel }), { success: true });
      // 404 on the wire.
      assert.equal(await refusal(t, 'contactChannels.get', me, { params: byServerChannel }), 'status:not-found');
      await t.call('contactChannels.delete', me, { params: channel });
      assert.equal((await t.call<any>('users.get', srv, { params: { user_id: userId } })).primary_email, null);
    });

    it('refuses an auth channel already used by someone else', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const taken = uniqueEmail();
      await signUp(t, client, taken);
      const { me } = await signUp(t, client, uniqueEmail());
      assert.equal(
        (
          await t.refuses(
            'contactChannels.create',
            me,
            { body: { user_id: 'me', value: taken, type: 'email', used_for_auth: true } },
            'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
          )
        ).status,
        409,
      );
      const ok = await t.call<{ id: string }>('contactChannels.create', me, {
        body: { user_id: 'me', value: taken, type: 'email', used_for_auth: false },
      });
      assert.equal(
        (
          await t.refuses(
            'contactChannels.update',
            me,
            { params: { user_id: 'me', contact_channel_id: ok.id }, body: { used_for_auth: true } },
            'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
          )
        ).status,
        409,
      );
    });

    it('denies clients other users and callers without a user', async () => {
      const t = get();
      const { client, server: srv, admin } = await createCoreProject(t);
      const a = await signUp(t, client, uniqueEmail());
      const b = await signUp(t, client, uniqueEmail());
      // 403 on the wire.
      assert.equal(await refusal(t, 'contactChannels.list', a.me, { query: { user_id: b.userId } }), 'status:forbidden');
      assert.equal(
        (await t.refuses('contactChannels.list', client, { query: { user_id: 'me' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status,
        400,
      );
      assert.equal((await t.call<{ items: unknown[] }>('contactChannels.list', srv, { query: { user_id: b.userId } })).items.length, 1);
      assert.equal((await t.call<{ items: unknown[] }>('contactChannels.list', admin, { query: { user_id: b.userId } })).items.length, 1);
      // Upstream filters channels by user without looking the user up: an unknown user has none.
      assert.deepEqual(await t.call('contactChannels.list', srv, { query: { user_id: '7b0e5d5e-8f0a-4c4e-9a43-2f1d1b4f9a10' } }), {
        items: [],
        is_paginated: false,
      });
      assert.equal((await t.refuses('contactChannels.list', srv, { query: { user_id: 'not-a-uuid' } }, 'SCHEMA_ERROR')).status, 400);
      assert.equal(
        (await t.refuses('contactChannels.verify', client, { body: { code: 'x'.repeat(45) } }, 'VERIFICATION_CODE_NOT_FOUND')).status,
        404,
      );
    });
  },
  { smtpUrl: smtp.url },
);
