import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCoreInternalUser, createCoreUser, describeWithCore, internalCredentials } from '../../test/helpers/core-client.ts';
import { MAX_DELIVERY_ATTEMPTS } from './worker.ts';

/**
 * `POST /internal/failed-emails-digest` (upstream e2e internal/failed-emails-digest.test.ts,
 * "should return 200 and process dry run request"): emails whose delivery failed in the last 24
 * hours, per project, with its owners' addresses; a real run mails each owner a digest.
 */
const CRON: Credentials = { authorization: 'Bearer mock_cron_secret' };
const DEAD_SMTP = {
  type: 'standard',
  host: '127.0.0.1',
  port: 9,
  username: '123',
  password: '123',
  sender_name: '123',
  sender_email: '123@g.co',
};

type Digest = {
  success: boolean;
  failed_emails_by_tenancy: Array<{
    emails: Array<{ subject: string; to: string[] }>;
    tenant_owner_emails: string[];
    project_id: string;
    tenancy_id: string;
  }>;
};

describeWithCore('failed emails digest', (get) => {
  it("lists a project's failed emails with its owners (one entry per owner and email), then mails the owners", async () => {
    const t = get();
    const ownerEmail = `owner-${Date.now()}@example.com`;
    const owner = await createCoreInternalUser(t, { primary_email: ownerEmail });
    const { id: projectId } = await t.call<{ id: string }>(
      'projects.create',
      { ...internalCredentials.client, accessToken: owner.accessToken },
      {
        body: {
          display_name: 'Test Failed Emails Project',
          owner_team_id: owner.selectedTeamId,
          config: { credential_enabled: true, email_config: DEAD_SMTP },
        },
      },
    );
    const srv: Credentials = { projectId, accessType: 'server', adminAccessToken: owner.accessToken };
    const user = await createCoreUser(
      t,
      { server: srv, client: { ...srv, accessType: 'client' } },
      { primary_email: 'failing@example.com' },
    );
    await t.call('emails.sendEmail', srv, { body: { user_ids: [user.id], html: 'This is a test email from Stack Auth.' } });
    // Every attempt fails (nothing listens on port 9); the queue step runs each retry when due.
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) {
      assert.deepEqual(await t.call('emails.runQueueStep', CRON, { query: { only_one_step: 'true' } }), { ok: true });
      t.clock.advance(3_600_000);
    }
    const dry = await t.call<Digest>('emails.failedEmailsDigest', CRON, { query: { dry_run: 'true' } });
    assert.equal(dry.success, true);
    const mine = dry.failed_emails_by_tenancy.filter((b) => b.project_id === projectId);
    assert.deepEqual(mine, [
      {
        emails: [{ subject: '', to: [`User ID: ${user.id}`] }],
        tenant_owner_emails: [ownerEmail],
        project_id: projectId,
        tenancy_id: projectId,
      },
    ]);
    const internalOutbox = async () =>
      (
        await t.call<{ items: Array<{ subject: string; to: { emails?: string[] } }> }>('emails.listOutbox', internalCredentials.server)
      ).items.filter((e) => e.subject === 'Failed emails digest');
    assert.equal((await internalOutbox()).length, 0, 'a dry run mails nobody');
    const real = await t.call<Digest>('emails.failedEmailsDigest', CRON, {});
    assert.deepEqual(
      real.failed_emails_by_tenancy.filter((b) => b.project_id === projectId),
      mine,
    );
    const digests = await internalOutbox();
    assert.deepEqual(
      digests.map((d) => d.to.emails),
      [[ownerEmail]],
    );
    // A day later the failure is out of the window.
    t.clock.advance(24 * 3_600_000);
    const later = await t.call<Digest>('emails.failedEmailsDigest', CRON, { query: { dry_run: 'true' } });
    assert.equal(later.failed_emails_by_tenancy.filter((b) => b.project_id === projectId).length, 0);
  });
});
