import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { callHtml, refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import { startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

/**
 * Unsubscribe links, in-process (test/helpers/core-client.ts). What a mail client's one-click
 * POST (a form body) and a browser's GET of the link receive over HTTP, and the 400 text answer,
 * are in test/routes/wire-answers.test.ts.
 */
describeWithCore('unsubscribe links', (get) => {
  it('puts an unsubscribe link and RFC 8058 one-click headers on notification emails, which turn the category off once', async () => {
    const t = get();
    const { server: srv } = await createCoreProject(t, {
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
    const email = uniqueEmail('news');
    const user = await t.call<{ id: string }>('users.create', srv, { body: { primary_email: email, primary_email_verified: true } });
    await t.call('emails.sendEmail', srv, {
      body: { user_ids: [user.id], html: '<p>Big news</p>', subject: 'News', notification_category_name: 'Marketing' },
    });
    const mail = await smtp.waitFor((m) => m.to.includes(email) && m.subject === 'News');
    // Raw header lines (mailparser turns List-* headers into objects).
    const header = (m: typeof mail, name: string) =>
      m.raw.headerLines
        .find((h) => h.key === name)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n\s+/g, '') ?? null;
    const listUnsubscribe = header(mail, 'list-unsubscribe') ?? '';
    assert.match(
      listUnsubscribe,
      /^<http:\/\/127\.0\.0\.1:\d+\/api\/v1\/emails\/unsubscribe-link\?code=[0-9a-z]{45}&project_id=[0-9a-f-]{36}>$/,
    );
    assert.equal(header(mail, 'list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    const link = new URL(listUnsubscribe.slice(1, -1));
    assert.ok(mail.html.includes(link.toString().replace(/&/g, '&amp;')), 'the link is in the body too');
    const query = Object.fromEntries(link.searchParams);

    // What a mail client does for one-click unsubscribe (RFC 8058 §3.1), then a second visit.
    assert.equal(
      await callHtml(t, 'notifications.unsubscribeOneClick', {}, { query, body: { 'List-Unsubscribe': 'One-Click' } }),
      '<p>Successfully unsubscribed from notification group</p>',
    );
    assert.equal(
      await callHtml(t, 'notifications.unsubscribeLink', {}, { query }),
      '<p>You have already unsubscribed from this notification group</p>',
    );
    const prefs = await t.call<{ items: Array<{ notification_category_name: string; enabled: boolean }> }>(
      'notifications.listPreferences',
      srv,
      { params: { user_id: user.id } },
    );
    assert.equal(prefs.items.find((p) => p.notification_category_name === 'Marketing')!.enabled, false);

    // Transactional emails cannot be turned off and carry no link.
    await t.call('emails.sendEmail', srv, { body: { user_ids: [user.id], html: '<p>Receipt</p>', subject: 'Receipt' } });
    const receipt = await smtp.waitFor((m) => m.to.includes(email) && m.subject === 'Receipt');
    assert.equal(header(receipt, 'list-unsubscribe'), null);
    assert.ok(!receipt.html.includes('unsubscribe-link'));
  });

  it("answers upstream's errors for a malformed, unknown or foreign code", async () => {
    const t = get();
    const { projectId } = await createCoreProject(t);
    await refusesWithStatus(t, 'notifications.unsubscribeLink', {}, { query: { code: 'abc' } }, 'bad-request', 'Invalid code');
    await refusesWithStatus(t, 'notifications.unsubscribeOneClick', {}, { query: { code: 'abc' } }, 'bad-request', 'Invalid code');
    assert.equal(
      (
        await t.refuses(
          'notifications.unsubscribeLink',
          {},
          { query: { code: 'a'.repeat(45), project_id: projectId } },
          'VERIFICATION_CODE_NOT_FOUND',
        )
      ).status,
      404,
    );
    assert.equal(
      (await t.refuses('notifications.unsubscribeLink', {}, { query: { code: 'a'.repeat(45) } }, 'VERIFICATION_CODE_NOT_FOUND')).status,
      404,
    );
  });
});
