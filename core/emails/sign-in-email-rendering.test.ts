import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';

/**
 * Built-in sign-in emails rendered a tenant's template inside
 * the caller's database transaction, so a slow template held the transaction (and on SQLite the
 * one connection) for up to the 2 s render deadline. They now queue with the transaction and render
 * after it commits. In-process (test/helpers/core-client.ts): an operation still running is a
 * pending `invoke`, as it was a pending request.
 */

type OutboxRow = { to: string[]; html: string };
const listed = async (t: TestCore, admin: Credentials) => (await t.call<{ items: OutboxRow[] }>('emails.list', admin)).items;

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

/** Loops (until the render deadline stops it) only for links to /slow-render; renders otherwise. */
const SLOW_FOR_SOME_LINKS = `export function EmailTemplate({ variables }) {
  if (String(variables.magicLink).includes('slow-render')) { while (true) {} }
  return <p>Custom sign-in {variables.otp}</p>;
}`;

/** Custom templates need the project's own SMTP server (upstream REQUIRES_CUSTOM_EMAIL_SERVER). */
const ownSmtp = () => ({
  magic_link_enabled: true,
  email_config: {
    type: 'standard',
    host: '127.0.0.1',
    port: smtp.port,
    username: 'u',
    password: 'p',
    sender_name: 'Acme',
    sender_email: 'noreply@acme.example.com',
  },
});

describeWithCore(
  'built-in emails render after the transaction',
  (get) => {
    it('commits the code and its queued email before a slow template renders, and other writes go on meanwhile', async () => {
      const t = get();
      const { admin, client } = await createCoreProject(t, ownSmtp());
      await t.call('emails.updateTemplate', admin, {
        params: { id: DEFAULT_TEMPLATES.magic_link.id },
        body: { tsx_source: SLOW_FOR_SOME_LINKS },
      });

      // Another tenant keeps both render workers busy for a while, so the sign-in email's render
      // (after commit) queues and then loops: a wide window in which the operation is still running.
      const other = await createCoreProject(t);
      const busy = [0, 1].map(() =>
        t.core
          .invoke('emails.renderEmail', other.admin, {
            body: { template_tsx_source: 'export function EmailTemplate() { while (true) {} }' },
          })
          .catch((error: unknown) => error),
      );
      const email = uniqueEmail();
      let sendDone = false;
      const send = t
        .call('authOtp.sendSignInCode', client, { body: { email, callback_url: 'http://localhost:3000/slow-render' } })
        .then((value) => {
          sendDone = true;
          return value;
        });
      // Wait (polling, no fixed delay) until the email is visible to another operation: committed.
      let row: OutboxRow | undefined;
      for (let i = 0; i < 2000 && !row && !sendDone; i++) row = (await listed(t, admin)).find((e) => e.to[0] === email);
      assert.ok(row, 'the email was committed with the code');
      assert.equal(sendDone, false, 'the email was committed before the render finished (the operation still runs)');
      assert.match(row.html, /^<!DOCTYPE html><html/, 'queued with the plain built-in layout');
      // A write that queues no email of its own (a password sign-up would wait for its own verification email's render).
      await t.call('anonymous.signUp', client);
      await Promise.all(busy);

      await send;
      const mail = await smtp.waitFor(email);
      assert.ok(!mail.html.includes('Custom sign-in'), 'the looping template was stopped: the plain layout went out');
      await t.call('authOtp.signIn', client, { body: { code: codeFromEmail(mail) } });
    });

    it("delivers the project template's rendering, which replaces the queued content after commit", async () => {
      const t = get();
      const { admin, client } = await createCoreProject(t, ownSmtp());
      await t.call('emails.updateTemplate', admin, {
        params: { id: DEFAULT_TEMPLATES.magic_link.id },
        body: { tsx_source: SLOW_FOR_SOME_LINKS },
      });
      const email = uniqueEmail();
      await t.call('authOtp.sendSignInCode', client, { body: { email, callback_url: 'http://localhost:3000/cb' } });
      const mail = await smtp.waitFor(email);
      const otp = mail.subject.slice(-6);
      // React separates adjacent text with `<!-- -->`, as upstream's react-email output does.
      assert.ok(mail.html.replaceAll('<!-- -->', '').includes(`Custom sign-in ${otp}`), mail.html);
      const row = (await listed(t, admin)).find((e) => e.to[0] === email);
      assert.ok(row?.html.includes('Custom sign-in'), 'the outbox row holds the rendering too');
    });
  },
  { smtpUrl: smtp.url },
);
