import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCore } from '../index.ts';
import { createCoreProject, createCoreUser, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys, keyCredentials, refusal } from '../../test/helpers/core-fixtures-b.ts';
import { INTERNAL_KEYS } from '../../test/helpers/internal-keys.ts';
import { assertExactlyArrives, waitUntil } from '../../test/helpers/settle.ts';
import { startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import { emailWorkerIdle, startEmailWorker, stopEmailWorker } from './worker.ts';

/**
 * Email delivery and the email operations, in-process (test/helpers/core-client.ts) against a
 * real SMTP receiver. "Exactly once" is proven without sleeping: every outbox row reaches `sent`,
 * every worker is idle (a delivery in progress has been acknowledged by the receiver), so a
 * duplicate would already be counted; a short quiet window then catches a late one.
 */

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

type OutboxRow = { to: string[]; status: string; error: string | null; attempt_count: number; subject: string; html: string };

async function outbox(t: TestCore, admin: Credentials, to: string): Promise<OutboxRow[]> {
  const page = await t.call<{ items: OutboxRow[] }>('emails.list', admin);
  return page.items.filter((e) => e.to.includes(to));
}

/** A project with its own admin key (not the owner's token), as the dashboard's key holders call. */
async function projectWithKeys(t: TestCore, config: Record<string, unknown> = {}) {
  const p = await createCoreProject(t, config);
  const keys = keyCredentials(p.projectId, await createCoreProjectKeys(t, p.admin));
  return { ...p, keyAdmin: keys.admin as Credentials };
}

/** Waits until every email to `recipients` is `sent` and every worker in `runtimes` is idle. */
async function settleDeliveries(t: TestCore, admin: Credentials, recipients: string[], runtimes: Array<TestCore['core']['runtime']>) {
  await waitUntil(
    async () => {
      const { items } = await t.call<{ items: OutboxRow[] }>('emails.list', admin);
      return recipients.every((email) => items.find((e) => e.to.includes(email))?.status === 'sent');
    },
    { timeoutMs: 120_000, what: 'every email sent' },
  );
  for (const runtime of runtimes) await emailWorkerIdle(runtime);
}

const count = (recipients: string[]) => recipients.reduce((n, email) => n + smtp.to(email).length, 0);

describeWithCore(
  'emails with SMTP',
  (get) => {
    it('delivers every email exactly once after the SMTP server was down', async () => {
      const t = get();
      const { keyAdmin: admin } = await projectWithKeys(t);
      await smtp.stop();
      const recipients = [uniqueEmail('down1'), uniqueEmail('down2'), uniqueEmail('down3')];
      try {
        for (const email of recipients) {
          await t.call('emails.sendSignInInvitation', admin, { body: { email, callback_url: 'http://localhost:3000/handler/sign-in' } });
        }
        for (const email of recipients) {
          let row: OutboxRow | undefined;
          await waitUntil(async () => Boolean((row = (await outbox(t, admin, email))[0])?.error), {
            timeoutMs: 60_000,
            what: `a failed attempt to ${email}`,
          });
          assert.equal(row!.status, 'pending');
          assert.ok(row!.attempt_count >= 1);
        }
      } finally {
        await smtp.start();
      }
      t.clock.advance(10 * 60 * 1000);
      await settleDeliveries(t, admin, recipients, [t.core.runtime]);
      for (const email of recipients) {
        assert.equal(smtp.to(email).length, 1, `${email} arrived exactly once`);
        const [row] = await outbox(t, admin, email);
        assert.equal(row!.error, null);
      }
      await assertExactlyArrives(() => count(recipients), recipients.length, { timeoutMs: 10_000, quietMs: 200, what: 'emails' });
    });

    it('picks up emails left pending by a stopped worker when a worker starts again', async () => {
      const t = get();
      const { admin } = await createCoreProject(t);
      const runtime = t.core.runtime;
      await stopEmailWorker(runtime);
      const email = uniqueEmail('restart');
      try {
        await t.call('emails.sendSignInInvitation', admin, { body: { email, callback_url: 'http://localhost:3000/x' } });
        // A stopped worker has no timer and ignores kicks: nothing else could deliver it, so
        // this holds at once (no waiting needed to see that it was not sent).
        const [row] = await outbox(t, admin, email);
        assert.equal(row!.status, 'pending');
        assert.equal(row!.attempt_count, 0);
        assert.equal(smtp.to(email).length, 0);
      } finally {
        startEmailWorker(runtime);
      }
      await smtp.waitFor(email);
      await settleDeliveries(t, admin, [email], [runtime]);
      assert.equal(smtp.to(email).length, 1);
    });

    it('delivers each email exactly once when two cores share the database', async () => {
      const t = get();
      const { admin } = await createCoreProject(t);
      const runtime = t.core.runtime;
      await stopEmailWorker(runtime);
      const recipients = Array.from({ length: 30 }, (_, i) => uniqueEmail(`shared${i}`));
      let second: Awaited<ReturnType<typeof createCore>> | null = null;
      try {
        for (const email of recipients)
          await t.call('emails.sendSignInInvitation', admin, { body: { email, callback_url: 'http://localhost:3000/x' } });
        second = await createCore({
          storage: t.database.open(),
          baseUrl: 'http://127.0.0.1:1',
          secret: 'test-secret-do-not-use-in-production',
          clock: t.clock,
          strictErrors: true,
          environment: 'test',
          seedKeys: INTERNAL_KEYS,
          smtpUrl: smtp.url,
          emailPollIntervalMs: 10,
        });
      } finally {
        startEmailWorker(runtime);
      }
      try {
        await settleDeliveries(t, admin, recipients, [runtime, second.runtime]);
        for (const email of recipients) assert.equal(smtp.to(email).length, 1, `${email} arrived exactly once`);
        await assertExactlyArrives(() => count(recipients), recipients.length, { timeoutMs: 10_000, quietMs: 200, what: 'emails' });
      } finally {
        await second?.close();
      }
    });

    it('sends the sign-in invitation with the default template and theme', async () => {
      const t = get();
      const { keyAdmin: admin } = await projectWithKeys(t);
      const email = uniqueEmail();
      await t.call('emails.sendSignInInvitation', admin, { body: { email, callback_url: 'http://localhost:3000/handler/sign-in' } });
      const mail = await smtp.waitFor(email);
      assert.equal(mail.subject, 'You have been invited to sign in to New Project');
      assert.ok(mail.html.includes('http://localhost:3000/handler/sign-in'));
      const refused = await t.refuses(
        'emails.sendSignInInvitation',
        admin,
        { body: { email, callback_url: 'https://evil.com' } },
        'REDIRECT_URL_NOT_WHITELISTED',
      );
      assert.equal(refused.status, 400);
    });

    it('sends email to users with send-email and respects notification preferences', async () => {
      const t = get();
      // Custom emails need the project's own SMTP server (REQUIRES_CUSTOM_EMAIL_SERVER on the shared one).
      const p = await createCoreProject(t, {
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
      const { server: srv, client, admin } = p;
      const a = uniqueEmail('a');
      const b = uniqueEmail('b');
      const userA = await createCoreUser(t, p, { primary_email: a, primary_email_auth_enabled: true, display_name: 'Ann' });
      const userB = await createCoreUser(t, p, { primary_email: b, primary_email_auth_enabled: true, display_name: 'Ann' });
      const aId = userA.id;
      const bId = userB.id;
      const bClient = userB.client;

      type Preference = { notification_category_id: string; notification_category_name: string; enabled: boolean; can_disable: boolean };
      const prefs = await t.call<{ items: Preference[] }>('notifications.listPreferences', bClient, { params: { user_id: 'me' } });
      const marketing = prefs.items.find((i) => i.notification_category_name === 'Marketing')!;
      const transactional = prefs.items.find((i) => i.notification_category_name === 'Transactional')!;
      assert.deepEqual(transactional, {
        notification_category_id: transactional.notification_category_id,
        notification_category_name: 'Transactional',
        enabled: true,
        can_disable: false,
      });
      const update = (categoryId: string) => ({
        params: { user_id: 'me', notification_category_id: categoryId },
        body: { enabled: false },
      });
      const off = await t.call<{ enabled: boolean }>('notifications.updatePreference', bClient, update(marketing.notification_category_id));
      assert.equal(off.enabled, false);
      assert.equal(
        await refusal(t, 'notifications.updatePreference', bClient, update(transactional.notification_category_id)),
        'status:bad-request',
      );
      assert.equal(
        await refusal(t, 'notifications.updatePreference', bClient, update('00000000-0000-4000-8000-000000000000')),
        'status:not-found',
      );
      assert.equal(await refusal(t, 'notifications.listPreferences', bClient, { params: { user_id: aId } }), 'status:forbidden');
      const own = await t.refuses(
        'notifications.listPreferences',
        client,
        { params: { user_id: 'me' } },
        'CANNOT_GET_OWN_USER_WITHOUT_USER',
      );
      assert.equal(own.status, 400);

      const news = await t.call<{ results: unknown[] }>('emails.sendEmail', srv, {
        body: { user_ids: [aId, bId], html: '<p>Big news</p>', subject: 'News', notification_category_name: 'Marketing' },
      });
      // Every requested user is listed, B too, though B turned Marketing off and gets nothing (upstream).
      assert.deepEqual(news.results, [{ user_id: aId }, { user_id: bId }]);
      const mail = await smtp.waitFor(a);
      assert.equal(mail.subject, 'News');
      assert.ok(mail.html.includes('<p>Big news</p>'));

      const receipt = await t.call<{ results: unknown[] }>('emails.sendEmail', srv, {
        body: { user_ids: [bId], html: '<p>Receipt</p>', subject: 'Receipt' },
      });
      assert.deepEqual(receipt.results, [{ user_id: bId }]);
      await smtp.waitFor(b);
      // The receipt is the only email B gets: the Marketing one was never queued for B.
      await assertExactlyArrives(() => smtp.to(b).length, 1, { timeoutMs: 10_000, quietMs: 200, what: `emails to ${b}` });

      const template = await t.call<{ id: string }>('emails.createTemplate', admin, {
        body: {
          display_name: 'Hello',
          tsx_source: `import { Text } from '@react-email/components'; import { Subject } from '@stackframe/emails';
export function EmailTemplate({ user, variables }) { return <><Subject value={'Hello ' + user.displayName} /><Text>Code {variables.n}</Text></>; }`,
        },
      });
      const tpl = await t.call<{ results: unknown[] }>('emails.sendEmail', admin, {
        body: { all_users: true, template_id: template.id, variables: { n: 42 } },
      });
      assert.equal(tpl.results.length, 2);
      await smtp.waitFor((m) => m.to.includes(a) && m.subject === 'Hello Ann');

      await t.refuses('emails.sendEmail', srv, { body: { user_ids: [aId], subject: 'x' } }, 'SCHEMA_ERROR');
      await t.refuses('emails.sendEmail', srv, { body: { user_ids: [aId], all_users: true, html: 'x', subject: 'x' } }, 'SCHEMA_ERROR');
      const unknownUser = await t.refuses(
        'emails.sendEmail',
        srv,
        { body: { user_ids: ['7b0e5d5e-8f0a-4c4e-9a43-2f1d1b4f9a10'], html: 'x', subject: 'x' } },
        'USER_ID_DOES_NOT_EXIST',
      );
      assert.equal(unknownUser.status, 400);
      const denied = await t.refuses(
        'emails.sendEmail',
        client,
        { body: { user_ids: [aId], html: 'x', subject: 'x' } },
        'INSUFFICIENT_ACCESS_TYPE',
      );
      assert.equal(denied.status, 401);
    });
  },
  { smtpUrl: smtp.url },
);

describeWithCore('emails without SMTP (built-in outbox)', (get) => {
  it('keeps emails in the outbox and lists them', async () => {
    const t = get();
    const { admin, client, server: srv } = await createCoreProject(t, { magic_link_enabled: true });
    const email = uniqueEmail('outbox');
    await t.call('authOtp.sendSignInCode', client, { body: { email, callback_url: 'http://localhost:3000/cb' } });
    const [row] = await outbox(t, admin, email);
    assert.equal(row!.status, 'outbox');
    assert.match(row!.subject, /^Sign in to New Project: Your code is [0-9A-Z]{6}$/);
    assert.equal(smtp.to(email).length, 0);
    assert.equal((await t.refuses('emails.list', srv, {}, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
    assert.equal((await t.refuses('emails.list', client, {}, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
  });

  it("sends through a project's own SMTP server (standard config) even without a shared one", async () => {
    const t = get();
    const { admin } = await createCoreProject(t, {
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
    const email = uniqueEmail('standard');
    await t.call('emails.sendSignInInvitation', admin, { body: { email, callback_url: 'http://localhost:3000/x' } });
    const mail = await smtp.waitFor(email);
    assert.equal(mail.from, 'noreply@acme.example.com');
  });

  it('sends a test email through given settings and reports failures in the body', async () => {
    const t = get();
    const { admin, server: srv } = await createCoreProject(t);
    const email = uniqueEmail('test');
    const config = {
      host: '127.0.0.1',
      port: smtp.port,
      username: 'u',
      password: 'p',
      sender_name: 'Acme',
      sender_email: 'noreply@acme.example.com',
    };
    const ok = await t.call<{ success: boolean }>('emails.sendTestEmail', admin, {
      body: { recipient_email: email, email_config: config },
    });
    assert.deepEqual(ok, { success: true });
    await smtp.waitFor(email);
    const bad = await t.call<{ success: boolean; error_message?: string }>('emails.sendTestEmail', admin, {
      body: { recipient_email: email, email_config: { ...config, port: 1 } },
    });
    assert.equal(bad.success, false);
    assert.ok(bad.error_message);
    const denied = await t.refuses(
      'emails.sendTestEmail',
      srv,
      { body: { recipient_email: email, email_config: config } },
      'INSUFFICIENT_ACCESS_TYPE',
    );
    assert.equal(denied.status, 401);
    await t.refuses('emails.sendTestEmail', admin, { body: { recipient_email: 'nope', email_config: config } }, 'SCHEMA_ERROR');
  });
});
