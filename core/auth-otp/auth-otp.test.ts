import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { coreBaseUrl, createCoreProjectKeys, refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';

/** OTP and magic-link sign-in, in-process (test/helpers/core-client.ts), emails through a test SMTP receiver. */

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

describeWithCore(
  'OTP and magic-link sign-in',
  (get) => {
    it('signs a new user in with the magic link, creating a verified user with OTP enabled', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t, { magic_link_enabled: true });
      const email = uniqueEmail();
      const sent = await t.call<{ nonce: string }>('authOtp.sendSignInCode', client, {
        body: { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
      });
      assert.equal(sent.nonce.length, 39);
      const mail = await smtp.waitFor(email);
      const code = codeFromEmail(mail);
      assert.match(mail.subject, /^Sign in to New Project: Your code is [0-9A-Z]{6}$/);
      assert.equal(mail.subject.slice(-6), code.slice(0, 6).toUpperCase());
      assert.match(
        mail.html,
        /^<!DOCTYPE html PUBLIC "-\/\/W3C\/\/DTD XHTML 1\.0 Transitional\/\/EN"/,
        "rendered through the default theme (react-email's document)",
      );
      assert.ok(mail.html.includes(`code=${code}`), 'the magic link is in the email');
      // The code stands alone in its own paragraph, as upstream's template renders it.
      const otp = mail.subject.slice(-6);
      assert.match(mail.html, new RegExp(`<p[^>]*>\\s*${otp}\\s*</p>`), 'the code has a paragraph of its own');
      assert.match(mail.text, new RegExp(`^\\s*${otp}\\s*$`, 'm'), 'the code is on a line of its own in the text part');
      assert.equal(code.slice(6), sent.nonce);

      assert.deepEqual(await t.call('authOtp.checkSignInCode', client, { body: { code } }), { is_code_valid: true });
      const signIn = await t.call<{ is_new_user: boolean; user_id: string }>('authOtp.signIn', client, { body: { code } });
      assert.equal(signIn.is_new_user, true);
      const user = await t.call<any>('users.get', srv, { params: { user_id: signIn.user_id } });
      assert.equal(user.primary_email, email);
      assert.equal(user.primary_email_verified, true);
      assert.equal(user.otp_auth_enabled, true);
      assert.equal((await t.refuses('authOtp.signIn', client, { body: { code } }, 'VERIFICATION_CODE_ALREADY_USED')).status, 409);
    });

    it('signs an existing user in with the OTP plus nonce and answers is_new_user false', async () => {
      const t = get();
      const { client } = await createCoreProject(t, { magic_link_enabled: true });
      const email = uniqueEmail();
      const first = await t.call<{ nonce: string }>('authOtp.sendSignInCode', client, {
        body: { email, callback_url: 'http://localhost:3000/cb' },
      });
      const firstCode = codeFromEmail(await smtp.waitFor(email));
      const created = await t.call<{ is_new_user: boolean; user_id: string }>('authOtp.signIn', client, { body: { code: firstCode } });
      assert.equal(created.is_new_user, true);
      assert.ok(first.nonce);

      const second = await t.call<{ nonce: string }>('authOtp.sendSignInCode', client, {
        body: { email, callback_url: 'http://localhost:3000/cb' },
      });
      await smtp.waitFor((m) => m.to.includes(email) && smtp.to(email).length >= 2);
      const mail = smtp.to(email)[1]!;
      const otp = mail.subject.slice(-6);
      const signIn = await t.call<{ is_new_user: boolean; user_id: string; access_token: string }>('authOtp.signIn', client, {
        body: { code: otp + second.nonce },
      });
      assert.equal(signIn.is_new_user, false);
      assert.equal(signIn.user_id, created.user_id);
      const me = await t.call<{ primary_email: string }>('users.getCurrent', { ...client, accessToken: signIn.access_token });
      assert.equal(me.primary_email, email);
    });

    it('answers 403 text when OTP sign-in is disabled', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      await refusesWithStatus(
        t,
        'authOtp.sendSignInCode',
        client,
        { body: { email: uniqueEmail(), callback_url: 'http://localhost:3000/cb' } },
        'forbidden',
        'OTP sign-in is not enabled for this project',
      );
    });

    it('rejects an untrusted callback URL with REDIRECT_URL_NOT_WHITELISTED', async () => {
      const t = get();
      const { client } = await createCoreProject(t, {
        magic_link_enabled: true,
        allow_localhost: false,
        domains: [{ domain: 'https://*.example.com', handler_path: '/handler' }],
      });
      const send = (callback_url: string) => ({ body: { email: uniqueEmail(), callback_url } });
      assert.equal(
        (await t.refuses('authOtp.sendSignInCode', client, send('http://localhost:3000/cb'), 'REDIRECT_URL_NOT_WHITELISTED')).status,
        400,
      );
      assert.equal(
        (await t.refuses('authOtp.sendSignInCode', client, send('https://evil.com/cb'), 'REDIRECT_URL_NOT_WHITELISTED')).status,
        400,
      );
      assert.ok((await t.call<{ nonce: string }>('authOtp.sendSignInCode', client, send('https://app.example.com/handler/cb'))).nonce);
      assert.ok(
        (await t.call<{ nonce: string }>('authOtp.sendSignInCode', client, send(`${coreBaseUrl(t)}/handler/magic-link-callback`))).nonce,
      );
    });

    it('refuses an existing unverified email with USER_EMAIL_ALREADY_EXISTS', async () => {
      const t = get();
      const { client, server: srv } = await createCoreProject(t, { magic_link_enabled: true });
      const email = uniqueEmail();
      await t.call('users.create', srv, { body: { primary_email: email, primary_email_auth_enabled: true } });
      const refused = await t.refuses(
        'authOtp.sendSignInCode',
        client,
        { body: { email, callback_url: 'http://localhost:3000/cb' } },
        'USER_EMAIL_ALREADY_EXISTS',
      );
      assert.equal(refused.status, 409);
      assert.equal(refused.details.would_work_if_email_was_verified, true);
    });

    it('does not create a user when sign-up is disabled, and keeps the code', async () => {
      const t = get();
      const { client, admin } = await createCoreProject(t, { magic_link_enabled: true });
      const email = uniqueEmail();
      await t.call('authOtp.sendSignInCode', client, { body: { email, callback_url: 'http://localhost:3000/cb' } });
      const code = codeFromEmail(await smtp.waitFor(email));
      await t.call('projects.updateCurrent', admin, { body: { config: { sign_up_enabled: false } } });
      assert.equal((await t.refuses('authOtp.signIn', client, { body: { code } }, 'SIGN_UP_NOT_ENABLED')).status, 400);
      await t.call('projects.updateCurrent', admin, { body: { config: { sign_up_enabled: true } } });
      assert.equal((await t.call<{ is_new_user: boolean }>('authOtp.signIn', client, { body: { code } })).is_new_user, true);
    });

    it('answers each code outcome: not found, expired, max attempts', async () => {
      const t = get();
      const { admin, projectId } = await createCoreProject(t, { magic_link_enabled: true });
      const keys = await createCoreProjectKeys(t, admin);
      const client = { projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey };
      assert.equal(
        (await t.refuses('authOtp.signIn', client, { body: { code: 'x'.repeat(45) } }, 'VERIFICATION_CODE_NOT_FOUND')).status,
        404,
      );
      assert.equal(
        (await t.refuses('authOtp.checkSignInCode', client, { body: { code: 'nope' } }, 'VERIFICATION_CODE_NOT_FOUND')).status,
        404,
      );

      const email = uniqueEmail();
      await t.call('authOtp.sendSignInCode', client, { body: { email, callback_url: 'http://localhost:3000/cb' } });
      const code = codeFromEmail(await smtp.waitFor(email));
      t.clock.advance(7 * 24 * 3600 * 1000 + 1);
      assert.equal((await t.refuses('authOtp.signIn', client, { body: { code } }, 'VERIFICATION_CODE_EXPIRED')).status, 400);

      const email2 = uniqueEmail();
      const sent = await t.call<{ nonce: string }>('authOtp.sendSignInCode', client, {
        body: { email: email2, callback_url: 'http://localhost:3000/cb' },
      });
      const real = codeFromEmail(await smtp.waitFor(email2));
      const wrong = (real.slice(0, 6) === 'aaaaaa' ? 'bbbbbb' : 'aaaaaa') + sent.nonce;
      for (let i = 0; i < 20; i++)
        assert.equal((await t.refuses('authOtp.signIn', client, { body: { code: wrong } }, 'VERIFICATION_CODE_NOT_FOUND')).status, 404);
      assert.equal(
        (await t.refuses('authOtp.signIn', client, { body: { code: real } }, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED')).status,
        400,
      );
    });

    it('rejects bad input and calls without an access type', async () => {
      const t = get();
      const { client, projectId } = await createCoreProject(t, { magic_link_enabled: true });
      assert.equal(
        (
          await t.refuses(
            'authOtp.sendSignInCode',
            client,
            { body: { email: 'not-an-email', callback_url: 'http://localhost:3000/cb' } },
            'SCHEMA_ERROR',
          )
        ).status,
        400,
      );
      assert.equal((await t.refuses('authOtp.signIn', client, { body: { code: 'x', extra: 1 } }, 'SCHEMA_ERROR')).status, 400);
      assert.equal((await t.refuses('authOtp.signIn', { projectId }, { body: { code: 'x' } }, 'ACCESS_TYPE_REQUIRED')).status, 400);
    });
  },
  { smtpUrl: smtp.url },
);
