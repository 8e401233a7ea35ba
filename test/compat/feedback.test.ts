import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createInternalUser, internal } from '../helpers/api.ts';
import { startSmtpReceiver } from '../helpers/smtp.ts';
import { FEEDBACK_PER_ADDRESS_HOUR } from '../../core/feedback/submit-feedback.ts';

// Upstream's POST /api/v1/internal/feedback (its e2e
// https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/internal/feedback.test.ts), mailed to the operator.

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

describeWithServer(
  'POST /internal/feedback',
  (get) => {
    const run = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const operator = `operator-${run}@example.com`;

    it("mails feedback from a signed-in owner to the operator, with the sender's name, address and user id", async () => {
      const server = get();
      const owner = await createInternalUser(server, { primary_email: operator });
      const res = await api(
        server,
        'POST',
        '/internal/feedback',
        { ...internal.client, accessToken: owner.accessToken },
        { name: 'Support Tester', email: `tester-${run}@example.com`, message: 'Authenticated feedback from the dashboard.' },
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true });
      const mail = await smtp.waitFor((m) => m.subject === `[Support] tester-${run}@example.com`);
      assert.deepEqual(mail.to, [operator]);
      for (const part of ['Support Tester', `tester-${run}@example.com`, owner.id, 'Authenticated feedback from the dashboard.'])
        assert.ok(mail.text.includes(part), `${part} in ${mail.text}`);
    });

    it('takes bug reports without credentials, labelled as such', async () => {
      const server = get();
      const res = await api(
        server,
        'POST',
        '/internal/feedback',
        {},
        { email: `reporter-${run}@example.com`, message: 'Something is broken.', feedback_type: 'bug' },
      );
      assert.equal(res.status, 200, res.text);
      const mail = await smtp.waitFor((m) => m.subject === `[Bug Report] reporter-${run}@example.com`);
      assert.deepEqual(mail.to, [operator]);
      assert.ok(mail.text.includes('Something is broken.'));
    });

    it("refuses an empty message with upstream's exact SCHEMA_ERROR", async () => {
      const server = get();
      const res = await api(server, 'POST', '/internal/feedback', {}, { email: 'test@example.com', message: '' });
      assertKnownError(res, 'SCHEMA_ERROR', 400);
      assert.equal(res.body.error, 'Request validation failed on POST /api/v1/internal/feedback:\n  - body.message must not be empty');
    });

    it(`throttles anonymous senders per address (${FEEDBACK_PER_ADDRESS_HOUR} an hour)`, async () => {
      const server = get();
      let status = 200;
      let sent = 0;
      for (; sent <= FEEDBACK_PER_ADDRESS_HOUR + 2 && status === 200; sent++) {
        status = (await api(server, 'POST', '/internal/feedback', {}, { email: 'flood@example.com', message: `flood ${sent}` })).status;
      }
      assert.equal(status, 429);
      assert.ok(sent <= FEEDBACK_PER_ADDRESS_HOUR + 1, `refused only after ${sent} messages`);
    });
  },
  { smtpUrl: smtp.url },
);
