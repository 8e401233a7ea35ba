import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { api, createProject } from '../helpers/api.ts';
import { startSamlIdp, type TestSamlIdp } from '../helpers/saml-idp.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

for (const dialect of testDialects()) {
  describe(`webhooks for SSO connection, verified domain and SCIM events [${dialect}]`, () => {
    let server: TestServer;
    let dns: TestDnsServer;
    let receiver: WebhookReceiver;
    let idp: TestSamlIdp;

    before(async () => {
      dns = await startDnsServer();
      receiver = await startWebhookReceiver();
      idp = await startSamlIdp();
      server = await startTestServer(dialect, { dnsServers: [dns.address], webhookPollIntervalMs: 100 });
    });
    after(async () => {
      await server?.close();
      await dns?.close();
      await receiver?.close();
      await idp?.close();
    });

    it('sends sso_connection.created|updated|deleted, team_domain.verified and scim_user.provisioned|deprovisioned', async () => {
      const p = await createProject(server);
      const types = [
        'sso_connection.created',
        'sso_connection.updated',
        'sso_connection.deleted',
        'team_domain.verified',
        'scim_user.provisioned',
        'scim_user.deprovisioned',
      ];
      const endpoint = await api(server, 'POST', '/internal/webhook-endpoints', p.admin, { url: receiver.url, event_types: types });
      assert.equal(endpoint.status, 201, endpoint.text);
      const teamId = (await api(server, 'POST', '/teams', p.server, { display_name: 'Corp' })).body.id as string;

      const created = await api(server, 'POST', `/teams/${teamId}/sso-connections`, p.server, {
        type: 'saml',
        idp_metadata_xml: idp.metadataXml,
      });
      assert.equal(created.status, 201, created.text);
      const connectionUrl = `/teams/${teamId}/sso-connections/${created.body.id}`;
      assert.equal((await api(server, 'PATCH', connectionUrl, p.server, { display_name: 'Okta' })).status, 200);
      assert.equal((await api(server, 'DELETE', connectionUrl, p.server)).status, 200);

      const claimed = await api(server, 'POST', `/teams/${teamId}/domains`, p.server, { domain: 'hooks.test' });
      assert.equal(claimed.status, 201, claimed.text);
      dns.records.set('_gatehouse-challenge.hooks.test', [claimed.body.challenge.value]);
      const verified = await api(server, 'POST', `/teams/${teamId}/domains/hooks.test/verify`, p.server);
      assert.equal(verified.body.verified, true, verified.text);

      const token = await api(server, 'POST', `/teams/${teamId}/scim-tokens`, p.server, { description: 'Okta' });
      const scim = (method: string, path: string, body?: unknown) =>
        fetch(`${token.body.base_url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token.body.token}`, 'content-type': 'application/scim+json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const user = await scim('POST', '/Users', { schemas: [USER], userName: 'kim', emails: [{ value: 'kim@hooks.test', primary: true }] });
      assert.equal(user.status, 201);
      const scimId = ((await user.json()) as { id: string }).id;
      assert.equal((await scim('DELETE', `/Users/${scimId}`)).status, 204);

      const got = await receiver.waitFor(6, 20_000);
      const byType = new Map(got.map((r) => [r.payload.type, r.payload.data]));
      assert.deepEqual([...byType.keys()].sort(), [...types].sort());
      assert.equal(byType.get('sso_connection.created').id, created.body.id);
      assert.equal(byType.get('sso_connection.created').acs_url, created.body.acs_url);
      assert.equal(byType.get('sso_connection.updated').display_name, 'Okta');
      assert.ok(!JSON.stringify(byType.get('sso_connection.updated')).includes('PRIVATE KEY'), 'no secret travels');
      assert.deepEqual(byType.get('sso_connection.deleted'), { id: created.body.id, team_id: teamId });
      assert.deepEqual(byType.get('team_domain.verified'), { team_id: teamId, domain: 'hooks.test' });
      assert.equal(byType.get('scim_user.provisioned').team_id, teamId);
      assert.equal(byType.get('scim_user.deprovisioned').active, false);
    });
  });
}
