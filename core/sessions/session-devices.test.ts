import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { buildMmdb } from '../../test/helpers/mmdb.ts';
import { describeDevice } from './device.ts';

/**
 * Sessions name their device and place (issue 28 finding 9): the user agent that created or last
 * refreshed a session is kept and read as browser and OS; the place of its last use comes from
 * the operator's GeoIP database file only (a tiny real MaxMind DB here), never from the network.
 */

const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

const geoip = join(mkdtempSync(join(tmpdir(), 'gatehouse-geoip-')), 'city.mmdb');
writeFileSync(
  geoip,
  buildMmdb([
    {
      cidr: '81.0.0.0/8',
      record: {
        country: { iso_code: 'DE' },
        subdivisions: [{ iso_code: 'BE' }],
        city: { names: { en: 'Berlin' } },
        location: { latitude: 52.52, longitude: 13.405, time_zone: 'Europe/Berlin' },
      },
    },
    { cidr: '203.0.113.0/24', record: { country: { iso_code: 'AU' } } },
  ]),
);

it('reads browser and OS out of common user agents, and nothing out of junk', () => {
  assert.deepEqual(describeDevice(MAC_CHROME), { browser: 'Chrome 140', os: 'macOS Catalina' });
  assert.deepEqual(describeDevice(WINDOWS_FIREFOX), { browser: 'Firefox 133', os: 'Windows 10' });
  assert.deepEqual(describeDevice(null), { browser: null, os: null });
  assert.deepEqual(describeDevice('curl-ish ☃'), { browser: null, os: null });
});

describeWithCore(
  'session devices and places (issue 28)',
  (get) => {
    it('keeps the signing-in browser, updates it on refresh, and places each use from the GeoIP file', async () => {
      const t = get();
      const p = await createCoreProject(t);
      const keys = await t.call<{ publishable_client_key: string }>('internalApiKeys.create', p.admin, {
        body: {
          description: 'k',
          expires_at_millis: null,
          has_publishable_client_key: true,
          has_secret_server_key: false,
          has_super_secret_admin_key: false,
        },
      });
      const client = { projectId: p.projectId, accessType: 'client' as const, publishableClientKey: keys.publishable_client_key };
      const signUp = await t.call<{ access_token: string; refresh_token: string; user_id: string }>('authPassword.signUp', client, {
        body: { email: 'device@example.com', password: 'a-Long-and-unusual-Passw0rd' },
        userAgent: MAC_CHROME,
        clientAddress: '81.2.3.4',
      });
      const list = async () => (await t.call<{ items: any[] }>('sessions.list', p.server, { query: { user_id: signUp.user_id } })).items;
      const [first] = await list();
      assert.equal(first.user_agent, MAC_CHROME);
      assert.equal(first.browser, 'Chrome 140');
      assert.equal(first.os, 'macOS Catalina');
      assert.deepEqual(first.last_used_at_end_user_ip_info, {
        ip: '81.2.3.4',
        countryCode: 'DE',
        regionCode: 'BE',
        cityName: 'Berlin',
        latitude: 52.52,
        longitude: 13.405,
        tzIdentifier: 'Europe/Berlin',
      });

      t.clock.advance(60_000);
      await t.call(
        'sessions.refreshCurrent',
        { ...client, refreshToken: signUp.refresh_token },
        {
          userAgent: WINDOWS_FIREFOX,
          clientAddress: '203.0.113.9',
        },
      );
      const [refreshed] = await list();
      assert.equal(refreshed.browser, 'Firefox 133');
      assert.equal(refreshed.os, 'Windows 10');
      assert.equal(refreshed.last_used_at, first.last_used_at + 60_000);
      assert.equal(refreshed.last_used_at_end_user_ip_info.countryCode, 'AU');
      assert.equal(refreshed.last_used_at_end_user_ip_info.cityName, null);

      // A session the app's backend creates with its server key carries no device or place: its
      // request's agent and address are the backend's, not the user's.
      await t.call('sessions.create', p.server, { body: { user_id: signUp.user_id }, userAgent: 'node', clientAddress: '81.2.3.4' });
      const server = (await list()).find((s) => s.id !== first.id)!;
      assert.equal(server.user_agent, null);
      assert.equal(server.browser, null);
      assert.equal('last_used_at_end_user_ip_info' in server, false);
    });
  },
  { geoipDatabase: geoip },
);
