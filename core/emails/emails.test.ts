import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, type Caller } from '../../test/helpers/api.ts';
import { startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { startEmailWorker, stopEmailWorker } from './worker.ts';
import { createGatehouse } from '../../server-bin/index.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

async function waitUntil<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

async function outbox(server: TestServer, admin: Caller, to: string) {
  const res = await api(server, 'GET', '/internal/emails', admin);
  assert.equal(res.status, 200, res.text);
  return (
    res.body.items as Array<{ to: string[]; status: string; error: string | null; attempt_count: number; subject: string; html: string }>
  ).filter((e) => e.to.includes(to));
}

async function createUserWithEmail(server: TestServer, srv: Caller, email: string) {
  const res = await api(server, 'POST', '/users', srv, { primary_email: email, primary_email_auth_enabled: true, display_name: 'Ann' });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
}

describeWithServer(
  'emails with SMTP',
  (get) => {
    it('delivers every email exactly once after the SMTP server was down', async () => {
      const server = get();
      const project = await createProject(server);
      const keys = await createProjectKeys(server, project.admin);
      const admin: Caller = { projectId: project.projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey };
      await smtp.stop();
      const recipients = [uniqueEmail('down1'), uniqueEmail('down2'), uniqueEmail('down3')];
      try {
        for (const email of recipients) {
          const res = await api(server, 'POST', '/internal/send-sign-in-invitation', admin, {
            email,
            callback_url: 'http://localhost:3000/handler/sign-in',
          });
          assert.deepEqual(res.body, { success: true });
        }
        for (const email of recipients) {
          const [row] = await waitUntil('a failed attempt', async () => {
            const rows = await outbox(server, admin, email);
            return rows[0]?.error ? rows : null;
          });
          assert.equal(row!.status, 'pending');
          assert.ok(row!.attempt_count >= 1);
        }
      } finally {
        await smtp.start();
      }
      server.clock.advance(10 * 60 * 1000);
      for (const email of recipients) await smtp.waitFor(email);
      await sleep(300);
      for (const email of recipients) {
        assert.equal(smtp.to(email).length, 1, `${email} arrived exactly once`);
        const [row] = await outbox(server, admin, email);
        assert.equal(row!.status, 'sent');
        assert.equal(row!.error, null);
      }
    });

    it('picks up emails left pending by a stopped worker when a worker starts again', async () => {
      const server = get();
      const { admin } = await createProject(server);
      const runtime = server.gatehouse.core.runtime;
      await stopEmailWorker(runtime);
      const email = uniqueEmail('restart');
      try {
        await api(server, 'POST', '/internal/send-sign-in-invitation', admin, { email, callback_url: 'http://localhost:3000/x' });
        await sleep(150);
        assert.equal((await outbox(server, admin, email))[0]!.status, 'pending');
        assert.equal(smtp.to(email).length, 0);
      } finally {
        startEmailWorker(runtime);
      }
      await smtp.waitFor(email);
      assert.equal(
        (await waitUntil('sent status', async () => (await outbox(server, admin, email)).find((r) => r.status === 'sent')))!.status,
        'sent',
      );
    });

    it('delivers each email exactly once when two servers share the database', async () => {
      const server = get();
      const { admin } = await createProject(server);
      const runtime = server.gatehouse.core.runtime;
      await stopEmailWorker(runtime);
      const recipients = Array.from({ length: 30 }, (_, i) => uniqueEmail(`shared${i}`));
      let second: Awaited<ReturnType<typeof createGatehouse>> | null = null;
      try {
        for (const email of recipients)
          await api(server, 'POST', '/internal/send-sign-in-invitation', admin, { email, callback_url: 'http://localhost:3000/x' });
        second = await createGatehouse({
          storage: server.database.open(),
          baseUrl: server.url,
          secret: 'test-secret-do-not-use-in-production',
          clock: server.clock,
          strictErrors: true,
          environment: 'test',
          smtpUrl: smtp.url,
          emailPollIntervalMs: 10,
        });
      } finally {
        startEmailWorker(runtime);
      }
      try {
        for (const email of recipients) await smtp.waitFor(email);
        await sleep(300);
        for (const email of recipients) assert.equal(smtp.to(email).length, 1, `${email} arrived exactly once`);
      } finally {
        await second?.close();
      }
    });

    it('sends the sign-in invitation with the default template and theme', async () => {
      const server = get();
      const { admin } = await createProject(server);
      const email = uniqueEmail();
      await api(server, 'POST', '/internal/send-sign-in-invitation', admin, {
        email,
        callback_url: 'http://localhost:3000/handler/sign-in',
      });
      const mail = await smtp.waitFor(email);
      assert.equal(mail.subject, 'You have been invited to sign in to New Project');
      assert.ok(mail.html.includes('http://localhost:3000/handler/sign-in'));
      assertKnownError(
        await api(server, 'POST', '/internal/send-sign-in-invitation', admin, { email, callback_url: 'https://evil.com' }),
        'REDIRECT_URL_NOT_WHITELISTED',
        400,
      );
    });

    it('sends email to users with send-email and respects notification preferences', async () => {
      const server = get();
      // Custom emails need the project's own SMTP server (REQUIRES_CUSTOM_EMAIL_SERVER on the shared one).
      const {
        server: srv,
        client,
        admin,
      } = await createProject(server, {
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
      const a = uniqueEmail('a');
      const b = uniqueEmail('b');
      const aId = await createUserWithEmail(server, srv, a);
      const bId = await createUserWithEmail(server, srv, b);
      const session = await api(server, 'POST', '/auth/sessions', srv, { user_id: bId });
      const bClient = { ...client, accessToken: session.body.access_token as string };

      const prefs = await api(server, 'GET', '/emails/notification-preference/me', bClient);
      assert.equal(prefs.status, 200, prefs.text);
      const marketing = prefs.body.items.find((i: { notification_category_name: string }) => i.notification_category_name === 'Marketing');
      const transactional = prefs.body.items.find(
        (i: { notification_category_name: string }) => i.notification_category_name === 'Transactional',
      );
      assert.deepEqual(transactional, {
        notification_category_id: transactional.notification_category_id,
        notification_category_name: 'Transactional',
        enabled: true,
        can_disable: false,
      });
      const off = await api(server, 'PATCH', `/emails/notification-preference/me/${marketing.notification_category_id}`, bClient, {
        enabled: false,
      });
      assert.equal(off.body.enabled, false);
      assert.equal(
        (
          await api(server, 'PATCH', `/emails/notification-preference/me/${transactional.notification_category_id}`, bClient, {
            enabled: false,
          })
        ).status,
        400,
      );
      assert.equal(
        (await api(server, 'PATCH', '/emails/notification-preference/me/00000000-0000-4000-8000-000000000000', bClient, { enabled: false }))
          .status,
        404,
      );
      assert.equal((await api(server, 'GET', `/emails/notification-preference/${aId}`, bClient)).status, 403);
      assertKnownError(await api(server, 'GET', '/emails/notification-preference/me', client), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);

      const news = await api(server, 'POST', '/emails/send-email', srv, {
        user_ids: [aId, bId],
        html: '<p>Big news</p>',
        subject: 'News',
        notification_category_name: 'Marketing',
      });
      assert.equal(news.status, 200, news.text);
      // Every requested user is listed, B too, though B turned Marketing off and gets nothing (upstream).
      assert.deepEqual(news.body.results, [
        { user_id: aId, user_email: a },
        { user_id: bId, user_email: b },
      ]);
      const mail = await smtp.waitFor(a);
      assert.equal(mail.subject, 'News');
      assert.ok(mail.html.includes('<p>Big news</p>'));

      const receipt = await api(server, 'POST', '/emails/send-email', srv, { user_ids: [bId], html: '<p>Receipt</p>', subject: 'Receipt' });
      assert.deepEqual(receipt.body.results, [{ user_id: bId, user_email: b }]);
      await smtp.waitFor(b);
      assert.equal(smtp.to(b).length, 1);

      const tpl = await api(server, 'POST', '/emails/send-email', admin, {
        all_users: true,
        template_id: (
          await api(server, 'POST', '/internal/email-templates', admin, {
            display_name: 'Hello',
            tsx_source: `import { Text } from '@react-email/components'; import { Subject } from '@stackframe/emails';
export function EmailTemplate({ user, variables }) { return <><Subject value={'Hello ' + user.displayName} /><Text>Code {variables.n}</Text></>; }`,
          })
        ).body.id,
        variables: { n: 42 },
      });
      assert.equal(tpl.status, 200, tpl.text);
      assert.equal(tpl.body.results.length, 2);
      await smtp.waitFor((m) => m.to.includes(a) && m.subject === 'Hello Ann');

      assertKnownError(await api(server, 'POST', '/emails/send-email', srv, { user_ids: [aId], subject: 'x' }), 'SCHEMA_ERROR', 400);
      assertKnownError(
        await api(server, 'POST', '/emails/send-email', srv, { user_ids: [aId], all_users: true, html: 'x', subject: 'x' }),
        'SCHEMA_ERROR',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/emails/send-email', srv, {
          user_ids: ['7b0e5d5e-8f0a-4c4e-9a43-2f1d1b4f9a10'],
          html: 'x',
          subject: 'x',
        }),
        'USER_ID_DOES_NOT_EXIST',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/emails/send-email', client, { user_ids: [aId], html: 'x', subject: 'x' }),
        'INSUFFICIENT_ACCESS_TYPE',
        401,
      );
    });
  },
  { smtpUrl: smtp.url },
);

describeWithServer('emails without SMTP (built-in outbox)', (get) => {
  it('keeps emails in the outbox and lists them', async () => {
    const server = get();
    const { admin, client, server: srv } = await createProject(server, { magic_link_enabled: true });
    const email = uniqueEmail('outbox');
    const sent = await api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email, callback_url: 'http://localhost:3000/cb' });
    assert.equal(sent.status, 200, sent.text);
    const [row] = await outbox(server, admin, email);
    assert.equal(row!.status, 'outbox');
    assert.match(row!.subject, /^Sign in to New Project: Your code is [0-9A-Z]{6}$/);
    assert.equal(smtp.to(email).length, 0);
    assertKnownError(await api(server, 'GET', '/internal/emails', srv), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'GET', '/internal/emails', client), 'INSUFFICIENT_ACCESS_TYPE', 401);
  });

  it("sends through a project's own SMTP server (standard config) even without a shared one", async () => {
    const server = get();
    const { admin } = await createProject(server, {
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
    await api(server, 'POST', '/internal/send-sign-in-invitation', admin, { email, callback_url: 'http://localhost:3000/x' });
    const mail = await smtp.waitFor(email);
    assert.equal(mail.from, 'noreply@acme.example.com');
  });

  it('sends a test email through given settings and reports failures in the body', async () => {
    const server = get();
    const { admin, server: srv } = await createProject(server);
    const email = uniqueEmail('test');
    const config = {
      host: '127.0.0.1',
      port: smtp.port,
      username: 'u',
      password: 'p',
      sender_name: 'Acme',
      sender_email: 'noreply@acme.example.com',
    };
    const ok = await api(server, 'POST', '/internal/send-test-email', admin, { recipient_email: email, email_config: config });
    assert.deepEqual(ok.body, { success: true });
    await smtp.waitFor(email);
    const bad = await api(server, 'POST', '/internal/send-test-email', admin, {
      recipient_email: email,
      email_config: { ...config, port: 1 },
    });
    assert.equal(bad.body.success, false);
    assert.ok(bad.body.error_message);
    assertKnownError(
      await api(server, 'POST', '/internal/send-test-email', srv, { recipient_email: email, email_config: config }),
      'INSUFFICIENT_ACCESS_TYPE',
      401,
    );
    assertKnownError(
      await api(server, 'POST', '/internal/send-test-email', admin, { recipient_email: 'nope', email_config: config }),
      'SCHEMA_ERROR',
      400,
    );
  });
});
