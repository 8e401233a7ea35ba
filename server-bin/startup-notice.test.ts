import assert from 'node:assert/strict';
import { it } from 'node:test';
import { browserUrl, firstStartNotice } from './startup-notice.ts';

it('prints http://localhost:<port> for a loopback base URL (passkeys refuse IP addresses), other URLs as given', () => {
  assert.equal(browserUrl('http://127.0.0.1:8102'), 'http://localhost:8102');
  assert.equal(browserUrl('http://127.0.0.1:8102/auth/'), 'http://localhost:8102/auth');
  assert.equal(browserUrl('http://[::1]:8102'), 'http://localhost:8102');
  assert.equal(browserUrl('https://auth.example.com'), 'https://auth.example.com');
  assert.equal(browserUrl('http://10.0.0.5:8102'), 'http://10.0.0.5:8102');
  const notice = firstStartNotice('http://127.0.0.1:8102', {
    publishable_client_key: 'pck',
    secret_server_key: 'ssk',
    super_secret_admin_key: 'sak',
  } as never).join('\n');
  assert.match(notice, /http:\/\/localhost:8102\/\n/);
  assert.doesNotMatch(notice, /127\.0\.0\.1/);
});
