import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

describeWithServer(
  'password reset',
  (get) => {
    it('resets the password end to end and the old one stops working', async () => {
      const server = get();
      const { client } = await createProject(server);
      const email = uniqueEmail();
      await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'old password 1' });
      const sent = await api(server, 'POST', '/auth/password/send-reset-code', client, {
        email,
        callback_url: 'http://localhost:3000/handler/password-reset',
      });
      assert.deepEqual(sent.body, { success: 'maybe, only if user with e-mail exists' });
      const mail = await smtp.waitFor(email);
      assert.equal(mail.subject, 'Reset your password at New Project');
      const code = codeFromEmail(mail);
      assert.deepEqual((await api(server, 'POST', '/auth/password/reset/check-code', client, { code })).body, { is_code_valid: true });
      assertKnownError(await api(server, 'POST', '/auth/password/reset', client, { code, password: 'short' }), 'PASSWORD_TOO_SHORT', 400);
      assert.deepEqual((await api(server, 'POST', '/auth/password/reset', client, { code, password: 'new password 2' })).body, {
        success: true,
      });
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-in', client, { email, password: 'old password 1' }),
        'EMAIL_PASSWORD_MISMATCH',
        400,
      );
      assert.equal((await api(server, 'POST', '/auth/password/sign-in', client, { email, password: 'new password 2' })).status, 200);
      assertKnownError(
        await api(server, 'POST', '/auth/password/reset', client, { code, password: 'new password 3' }),
        'VERIFICATION_CODE_ALREADY_USED',
        409,
      );
    });

    it('answers the same for an unknown email, in similar time, and sends nothing', async () => {
      const server = get();
      const { client } = await createProject(server);
      const email = uniqueEmail();
      await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'old password 1' });
      const t0 = performance.now();
      const known = await api(server, 'POST', '/auth/password/send-reset-code', client, { email, callback_url: 'http://localhost:3000/r' });
      const t1 = performance.now();
      const unknownEmail = uniqueEmail('nobody');
      const unknown = await api(server, 'POST', '/auth/password/send-reset-code', client, {
        email: unknownEmail,
        callback_url: 'http://localhost:3000/r',
      });
      const t2 = performance.now();
      assert.deepEqual(unknown.body, known.body);
      assert.equal(unknown.status, known.status);
      assert.ok(t1 - t0 >= 400 && t2 - t1 >= 400, `both answers wait the floor (${t1 - t0}, ${t2 - t1} ms)`);
      await smtp.waitFor(email);
      assert.equal(smtp.to(unknownEmail).length, 0);
    });

    it('answers the code errors and rejects bad callbacks and disabled passwords', async () => {
      const server = get();
      const { admin, projectId } = await createProject(server);
      const keys = await createProjectKeys(server, admin);
      const client = { projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey };
      const email = uniqueEmail();
      await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'old password 1' });
      assertKnownError(
        await api(server, 'POST', '/auth/password/send-reset-code', client, { email, callback_url: 'https://evil.com/r' }),
        'REDIRECT_URL_NOT_WHITELISTED',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/reset/check-code', client, { code: 'nope' }),
        'VERIFICATION_CODE_NOT_FOUND',
        404,
      );
      await api(server, 'POST', '/auth/password/send-reset-code', client, { email, callback_url: 'http://localhost:3000/r' });
      const code = codeFromEmail(await smtp.waitFor(email));
      server.clock.advance(8 * 24 * 3600 * 1000);
      assertKnownError(
        await api(server, 'POST', '/auth/password/reset', client, { code, password: 'new password 2' }),
        'VERIFICATION_CODE_EXPIRED',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/reset', client, { code, password: 'x', extra: true }),
        'SCHEMA_ERROR',
        400,
      );
      const { client: c2 } = await createProject(server, { credential_enabled: false });
      assertKnownError(
        await api(server, 'POST', '/auth/password/send-reset-code', c2, { email, callback_url: 'http://localhost:3000/r' }),
        'PASSWORD_AUTHENTICATION_NOT_ENABLED',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/send-reset-code', { projectId }, { email, callback_url: 'http://localhost:3000/r' }),
        'ACCESS_TYPE_REQUIRED',
        400,
      );
    });
  },
  { smtpUrl: smtp.url },
);
