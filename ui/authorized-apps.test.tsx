/** Hosted account settings' authorized apps, over a fake server, under StrictMode (show()). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { click, waitFor, waitForText } from './test-dom.tsx';
import { USER, makeApp, show } from './component-test-app.tsx';
import { AccountSettings } from './index.ts';

const PRINTER = {
  client_id: 'gh_printer',
  client_name: 'Photo printer',
  logo_uri: 'https://printer.example.com/logo.png',
  scopes: ['openid', 'email', 'offline_access'],
  authorized_at: Date.UTC(2026, 10, 1),
};
const TV = { client_id: 'gh_tv', client_name: 'Living-room TV', logo_uri: null, scopes: ['openid'], authorized_at: Date.UTC(2026, 9, 1) };

describe('AccountSettings authorized apps', () => {
  it('lists the apps the user authorized with logo, scopes and date, and revokes one', async () => {
    let apps = [PRINTER, TV];
    const { app, transport } = makeApp((req) => {
      const path = req.path.split('?')[0];
      if (path === '/oauth-provider/authorized-apps' && req.method === 'GET') return { json: { items: apps, is_paginated: false } };
      if (path === '/oauth-provider/authorized-apps/gh_printer' && req.method === 'DELETE') {
        apps = apps.filter((a) => a.client_id !== 'gh_printer');
        return { json: { success: true } };
      }
      if (path === '/users/me' && req.method === 'GET') return { json: { ...USER } };
      return undefined;
    }, true);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Authorized apps');
    const list = () => c.querySelector('ul[aria-label="Apps you authorized"]') as HTMLElement;
    const items = () => [...list().querySelectorAll('[data-testid="authorized-app"]')].map((li) => li.textContent ?? '');
    assert.equal(items().length, 2);
    assert.match(items()[0]!, /Photo printer/);
    assert.match(items()[0]!, /Access: openid, email, offline_access/);
    assert.match(items()[0]!, /authorized .*2026/);
    assert.equal(list().querySelector('img')?.getAttribute('src'), 'https://printer.example.com/logo.png');
    const first = list().querySelector('li') as HTMLElement;
    assert.ok(first.querySelector('button[aria-label="Revoke access of Photo printer"]'));
    await click(first, 'Revoke');
    await waitFor(
      () => items().length === 1,
      () => `still listed: ${items().join(' | ')}`,
    );
    assert.match(items()[0]!, /Living-room TV/);
    const revoke = transport.requests.filter((r) => r.method === 'DELETE');
    assert.deepEqual(
      revoke.map((r) => r.path),
      ['/oauth-provider/authorized-apps/gh_printer?user_id=me'],
    );
  });

  it('shows no section when the user authorized no app', async () => {
    const { app } = makeApp((req) => {
      const path = req.path.split('?')[0];
      if (path === '/oauth-provider/authorized-apps') return { json: { items: [], is_paginated: false } };
      if (path === '/users/me' && req.method === 'GET') return { json: { ...USER } };
      return undefined;
    }, true);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Active sessions');
    assert.ok(!(c.textContent ?? '').includes('Authorized apps'));
  });
});
