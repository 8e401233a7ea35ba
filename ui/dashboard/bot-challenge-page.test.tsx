/** The auth methods page's bot challenge section, under StrictMode with a fake API. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { StrictMode } from 'react';
import { click, flush, render, type, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT, PROJECT_ID, dashboard } from './test-harness.tsx';

it('bot challenge section: saves the Turnstile keys, then shows the site key and only a hint of the secret', async () => {
  let settings = { site_key: null as string | null, secret_key_hint: null as string | null, enabled: false };
  const puts: unknown[] = [];
  const { api } = dashboard(
    `/projects/${PROJECT_ID}/auth-methods`,
    (req) => {
      if (req.path === '/internal/projects/current') return { status: 200, body: PROJECT };
      if (req.path !== '/internal/bot-challenge/turnstile') return undefined;
      if (req.method === 'PUT') {
        puts.push(JSON.parse(req.body!));
        settings = { site_key: '0x4AAAAAAAsite', secret_key_hint: '0x…cret', enabled: true };
      }
      return { status: 200, body: settings };
    },
    { passkey: true, oauth: true, mfa: true },
  );
  const { container, unmount } = await render(
    <StrictMode>
      <DashboardRoot api={api} />
    </StrictMode>,
  );
  await waitForText(container, 'Save keys');
  assert.equal(container.querySelector('[data-testid="turnstile-status"]')?.textContent, 'Off.');
  await type(container, 'Site key', '0x4AAAAAAAsite');
  await type(container, 'Secret key', '0x4AAAAAAAsecret');
  await click(container, 'Save keys');
  await flush();
  assert.deepEqual(puts, [{ site_key: '0x4AAAAAAAsite', secret_key: '0x4AAAAAAAsecret' }]);
  await waitForText(container, 'On: site key 0x4AAAAAAAsite, secret key 0x…cret.');
  assert.ok(!(container.textContent ?? '').includes('0x4AAAAAAAsecret'), 'the secret is not shown again');
  await unmount();
});
