import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';

/**
 * Built-in sign-in emails rendered a tenant's template inside
 * the caller's database transaction, so a slow template held the transaction (and on SQLite the
 * one connection) for up to the 2 s render deadline. They now queue with the transaction and render
 * after it commits.
 */

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

describeWithServer(
  'built-in emails render after the transaction (issue 12)',
  (get) => {
    it('commits the code and its queued email before a slow template renders, and other writes go on meanwhile', async () => {
      const server = get();
      const { admin, client } = await createProject(server, ownSmtp());
      const saved = await api(server, 'PATCH', `/internal/email-templates/${DEFAULT_TEMPLATES.magic_link.id}`, admin, {
        tsx_source: SLOW_FOR_SOME_LINKS,
      });
      assert.equal(saved.status, 200, saved.text);

      // Another tenant keeps both render workers busy for a while, so the sign-in email's render
      // (after commit) queues and then loops: a wide window in which the request is still running.
      const other = await createProject(server);
      const busy = [0, 1].map(() =>
        api(server, 'POST', '/emails/render-email', other.admin, {
          template_tsx_source: 'export function EmailTemplate() { while (true) {} }',
        }),
      );
      const email = uniqueEmail();
      let sendDone = false;
      const send = api(server, 'POST', '/auth/otp/send-sign-in-code', client, {
        email,
        callback_url: 'http://localhost:3000/slow-render',
      }).then((res) => {
        sendDone = true;
        return res;
      });
      // Wait (polling, no fixed delay) until the email is visible to another request: committed.
      let row: { html: string } | undefined;
      for (let i = 0; i < 2000 && !row && !sendDone; i++) {
        const queued = await api(server, 'GET', '/internal/emails', admin);
        row = queued.body.items.find((e: { to: string[] }) => e.to[0] === email);
      }
      assert.ok(row, 'the email was committed with the code');
      assert.equal(sendDone, false, 'the email was committed before the render finished (the request still runs)');
      assert.match(row.html, /^<!DOCTYPE html><html/, 'queued with the plain built-in layout');
      // A write that queues no email of its own (a password sign-up would wait for its own verification email's render).
      const write = await api(server, 'POST', '/auth/anonymous/sign-up', client, {});
      assert.equal(write.status, 200, write.text);
      await Promise.all(busy);

      const sent = await send;
      assert.equal(sent.status, 200, sent.text);
      const mail = await smtp.waitFor(email);
      assert.ok(!mail.html.includes('Custom sign-in'), 'the looping template was stopped: the plain layout went out');
      const signIn = await api(server, 'POST', '/auth/otp/sign-in', client, { code: codeFromEmail(mail) });
      assert.equal(signIn.status, 200, signIn.text);
    });

    it("delivers the project template's rendering, which replaces the queued content after commit", async () => {
      const server = get();
      const { admin, client } = await createProject(server, ownSmtp());
      const saved = await api(server, 'PATCH', `/internal/email-templates/${DEFAULT_TEMPLATES.magic_link.id}`, admin, {
        tsx_source: SLOW_FOR_SOME_LINKS,
      });
      assert.equal(saved.status, 200, saved.text);
      const email = uniqueEmail();
      const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' });
      assert.equal(sent.status, 200, sent.text);
      const mail = await smtp.waitFor(email);
      const otp = mail.subject.slice(-6);
      assert.ok(mail.html.includes(`Custom sign-in ${otp}`), mail.html);
      const listed = await api(server, 'GET', '/internal/emails', admin);
      const row = listed.body.items.find((e: { to: string[] }) => e.to[0] === email);
      assert.ok(row.html.includes('Custom sign-in'), 'the outbox row holds the rendering too');
    });
  },
  { smtpUrl: smtp.url },
);
