import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

describeWithServer('unsubscribe links', (get) => {
  it('puts an unsubscribe link and RFC 8058 one-click headers on notification emails, which turn the category off once', async () => {
    const server = get();
    const { server: srv } = await createProject(server, {
      email_config: { type: 'standard', host: '127.0.0.1', port: smtp.port, username: 'u', password: 'p', sender_name: 'Acme', sender_email: 'noreply@acme.example.com' },
    });
    const email = uniqueEmail('news');
    const user = await api(server, 'POST', '/users', srv, { primary_email: email, primary_email_verified: true });
    const sent = await api(server, 'POST', '/emails/send-email', srv, { user_ids: [user.body.id], html: '<p>Big news</p>', subject: 'News', notification_category_name: 'Marketing' });
    assert.equal(sent.status, 200, sent.text);
    const mail = await smtp.waitFor((m) => m.to.includes(email) && m.subject === 'News');
    // Raw header lines (mailparser turns List-* headers into objects).
    const header = (m: typeof mail, name: string) => m.raw.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, '').replace(/\r?\n\s+/g, '') ?? null;
    const listUnsubscribe = header(mail, 'list-unsubscribe') ?? '';
    assert.match(listUnsubscribe, /^<http:\/\/127\.0\.0\.1:\d+\/api\/v1\/emails\/unsubscribe-link\?code=[0-9a-z]{45}&project_id=[0-9a-f-]{36}>$/);
    assert.equal(header(mail, 'list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    const link = listUnsubscribe.slice(1, -1);
    assert.ok(mail.html.includes(link.replace(/&/g, '&amp;')), 'the link is in the body too');

    // What a mail client does for one-click unsubscribe (RFC 8058 §3.1).
    const oneClick = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    assert.equal(oneClick.status, 200);
    assert.equal(await oneClick.text(), '<p>Successfully unsubscribed from notification group</p>');
    const again = await fetch(link);
    assert.equal(again.status, 200);
    assert.equal(await again.text(), '<p>You have already unsubscribed from this notification group</p>');
    const prefs = await api(server, 'GET', `/emails/notification-preference/${user.body.id}`, srv);
    assert.equal(prefs.body.items.find((p: { notification_category_name: string }) => p.notification_category_name === 'Marketing').enabled, false);

    // Transactional emails cannot be turned off and carry no link.
    await api(server, 'POST', '/emails/send-email', srv, { user_ids: [user.body.id], html: '<p>Receipt</p>', subject: 'Receipt' });
    const receipt = await smtp.waitFor((m) => m.to.includes(email) && m.subject === 'Receipt');
    assert.equal(header(receipt, 'list-unsubscribe'), null);
    assert.ok(!receipt.html.includes('unsubscribe-link'));
  });

  it('answers upstream\'s errors for a malformed, unknown or foreign code', async () => {
    const server = get();
    const { projectId } = await createProject(server);
    const short = await fetch(`${server.url}/api/v1/emails/unsubscribe-link?code=abc`);
    assert.equal(short.status, 400);
    assert.equal(await short.text(), 'Invalid code');
    const unknown = await api(server, 'GET', `/emails/unsubscribe-link?code=${'a'.repeat(45)}&project_id=${projectId}`);
    assertKnownError(unknown, 'VERIFICATION_CODE_NOT_FOUND', 404);
    assertKnownError(await api(server, 'GET', `/emails/unsubscribe-link?code=${'a'.repeat(45)}`), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });
});
