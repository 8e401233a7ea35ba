import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';
import type { TestServer } from '../helpers/server.ts';
import { applyEmailRetention, emailWorkerIdle } from '../../core/emails/worker.ts';

// Live code links were kept in clear in the outbox, with no retention limit.

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

/** Every stored copy of the project's emails to `to`, straight from the database. */
async function storedRows(server: TestServer, to: string) {
  return server.gatehouse.core.runtime.db.selectFrom('emails').selectAll().where('to_email', '=', to).execute();
}

describeWithServer(
  'codes in stored emails (issue 12 finding 9)',
  (get) => {
    it('delivers the live code by SMTP but stores only a redacted copy', async () => {
      const server = get();
      const { client } = await createProject(server, { magic_link_enabled: true });
      const email = uniqueEmail();
      await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' });
      const mail = await smtp.waitFor(email);
      const code = codeFromEmail(mail);
      const otp = code.slice(0, 6).toUpperCase();
      await emailWorkerIdle(server.gatehouse.core.runtime);
      const [row] = await storedRows(server, email);
      assert.equal(row!.status, 'sent');
      for (const part of [row!.subject, row!.html, row!.text ?? '']) {
        assert.ok(!part.includes(code) && !part.includes(otp), `no code in the stored copy: ${part.slice(0, 200)}`);
      }
      assert.match(row!.html, /\[redacted\]/);
      assert.equal(row!.sealed_body, null, 'the sealed live copy is dropped once delivered');
      assert.equal((await api(server, 'POST', '/auth/otp/sign-in', client, { code })).status, 200, 'the delivered code works');
    });
  },
  { smtpUrl: smtp.url },
);

describeWithServer('codes in the built-in outbox (issue 12 finding 9)', (get) => {
  it('keeps the live content only sealed, shows it to admins, and forgets it with the retention rules', async () => {
    const server = get();
    const { client, admin } = await createProject(server);
    const email = uniqueEmail();
    await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'velvet tractor 93' });
    await api(server, 'POST', '/auth/password/send-reset-code', client, { email, callback_url: 'http://localhost:3000/reset' });
    const listed = await api(server, 'GET', '/internal/emails', admin);
    const reset = listed.body.items.find((e: { subject: string }) => /Reset your password/.test(e.subject));
    const code = /code=([0-9a-z]{45})/.exec(reset.html)![1]!;
    const [row] = (await storedRows(server, email)).filter((r) => /Reset/.test(r.subject));
    assert.equal(row!.status, 'outbox');
    assert.ok(!row!.html.includes(code) && !(row!.text ?? '').includes(code), 'not in clear in the database');
    assert.ok(row!.sealed_body && !row!.sealed_body.includes(code));

    server.clock.advance(8 * 24 * 3600 * 1000);
    await applyEmailRetention(server.gatehouse.core.runtime);
    const after8 = (await storedRows(server, email)).filter((r) => /Reset/.test(r.subject));
    assert.equal(after8.length, 1);
    assert.equal(after8[0]!.sealed_body, null, 'the sealed code is dropped when it has expired');
    server.clock.advance(23 * 24 * 3600 * 1000);
    await applyEmailRetention(server.gatehouse.core.runtime);
    assert.equal((await storedRows(server, email)).length, 0, 'outbox rows are deleted after 30 days');
  });
});
