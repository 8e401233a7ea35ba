import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys, keyCredentials } from '../../test/helpers/core-fixtures-b.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';

/** Password reset by emailed code, in-process (test/helpers/core-client.ts) against a real SMTP receiver. */

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

describeWithCore(
  'password reset',
  (get) => {
    it('resets the password end to end and the old one stops working', async () => {
      const t = get();
      const { client } = await createCoreProject(t);
      const email = uniqueEmail();
      await t.call('authPassword.signUp', client, { body: { email, password: 'old password 1' } });
      const sent = await t.call('authPassword.sendResetCode', client, {
        body: { email, callback_url: 'http://localhost:3000/handler/password-reset' },
      });
      assert.deepEqual(sent, { success: 'maybe, only if user with e-mail exists' });
      const mail = await smtp.waitFor(email);
      assert.equal(mail.subject, 'Reset your password at New Project');
      const code = codeFromEmail(mail);
      assert.deepEqual(await t.call('authPassword.checkResetCode', client, { body: { code } }), { is_code_valid: true });
      assert.equal(
        (await t.refuses('authPassword.reset', client, { body: { code, password: 'short' } }, 'PASSWORD_TOO_SHORT')).status,
        400,
      );
      await t.call('authPassword.reset', client, { body: { code, password: 'new password 2' } });
      const mismatch = await t.refuses(
        'authPassword.signIn',
        client,
        { body: { email, password: 'old password 1' } },
        'EMAIL_PASSWORD_MISMATCH',
      );
      assert.equal(mismatch.status, 400);
      await t.call('authPassword.signIn', client, { body: { email, password: 'new password 2' } });
      const used = await t.refuses(
        'authPassword.reset',
        client,
        { body: { code, password: 'new password 3' } },
        'VERIFICATION_CODE_ALREADY_USED',
      );
      assert.equal(used.status, 409);
    });

    it('answers the same for an unknown email, in similar time, and sends nothing', async () => {
      const t = get();
      const { client, admin } = await createCoreProject(t);
      const email = uniqueEmail();
      await t.call('authPassword.signUp', client, { body: { email, password: 'old password 1' } });
      const t0 = performance.now();
      const known = await t.call('authPassword.sendResetCode', client, { body: { email, callback_url: 'http://localhost:3000/r' } });
      const t1 = performance.now();
      const unknownEmail = uniqueEmail('nobody');
      const unknown = await t.call('authPassword.sendResetCode', client, {
        body: { email: unknownEmail, callback_url: 'http://localhost:3000/r' },
      });
      const t2 = performance.now();
      assert.deepEqual(unknown, known);
      assert.ok(t1 - t0 >= 400 && t2 - t1 >= 400, `both answers wait the floor (${t1 - t0}, ${t2 - t1} ms)`);
      // Nothing was queued for the unknown address (the outbox is written before the answer), so
      // nothing can arrive for it: no waiting at the receiver is needed to see that.
      const outbox = await t.call<{ items: Array<{ to: string[] }> }>('emails.list', admin);
      assert.equal(outbox.items.filter((e) => e.to.includes(email)).length, 1);
      assert.equal(outbox.items.filter((e) => e.to.includes(unknownEmail)).length, 0);
      await smtp.waitFor(email);
      assert.equal(smtp.to(unknownEmail).length, 0);
    });

    it('answers the code errors and rejects bad callbacks and disabled passwords', async () => {
      const t = get();
      const { admin, projectId } = await createCoreProject(t);
      const { client } = keyCredentials(projectId, await createCoreProjectKeys(t, admin));
      const email = uniqueEmail();
      await t.call('authPassword.signUp', client, { body: { email, password: 'old password 1' } });
      const refused = (input: object, code: string) => t.refuses('authPassword.sendResetCode', client, { body: input }, code);
      assert.equal((await refused({ email, callback_url: 'https://evil.com/r' }, 'REDIRECT_URL_NOT_WHITELISTED')).status, 400);
      assert.equal(
        (await t.refuses('authPassword.checkResetCode', client, { body: { code: 'nope' } }, 'VERIFICATION_CODE_NOT_FOUND')).status,
        404,
      );
      await t.call('authPassword.sendResetCode', client, { body: { email, callback_url: 'http://localhost:3000/r' } });
      const code = codeFromEmail(await smtp.waitFor(email));
      t.clock.advance(8 * 24 * 3600 * 1000);
      const expired = await t.refuses(
        'authPassword.reset',
        client,
        { body: { code, password: 'new password 2' } },
        'VERIFICATION_CODE_EXPIRED',
      );
      assert.equal(expired.status, 400);
      await t.refuses('authPassword.reset', client, { body: { code, password: 'x', extra: true } }, 'SCHEMA_ERROR');
      const { client: c2 } = await createCoreProject(t, { credential_enabled: false });
      const disabled = await t.refuses(
        'authPassword.sendResetCode',
        c2,
        { body: { email, callback_url: 'http://localhost:3000/r' } },
        'PASSWORD_AUTHENTICATION_NOT_ENABLED',
      );
      assert.equal(disabled.status, 400);
      const noType = await t.refuses(
        'authPassword.sendResetCode',
        { projectId },
        { body: { email, callback_url: 'http://localhost:3000/r' } },
        'ACCESS_TYPE_REQUIRED',
      );
      assert.equal(noType.status, 400);
    });
  },
  { smtpUrl: smtp.url },
);
