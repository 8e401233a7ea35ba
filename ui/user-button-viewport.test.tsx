/**
 * The UserButton menu stays inside the viewport (it was cut off near the left edge),
 * rendered under <StrictMode> in happy-dom. happy-dom has no layout, so the button's and the
 * menu's rectangles are given here; the alignment rule itself is menuAlignment.
 */
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { StrictMode } from 'react';
import { act, flush, render, waitForText } from './test-dom.tsx';
import { ClientApp } from '../sdk/client-app.ts';
import { manualEnvironment } from '../sdk/env.ts';
import { GatehouseProvider } from '../sdk/react.tsx';
import { fakeJwt, fakeTransport } from '../sdk/test-support.ts';
import { memoryTokenStore } from '../sdk/tokens.ts';
import { UserButton } from './index.ts';
import { menuAlignment } from './components/user-button.tsx';

const USER = {
  id: 'u1',
  display_name: 'Ada',
  primary_email: 'ada@example.com',
  primary_email_verified: true,
  profile_image_url: null,
  signed_up_at_millis: 1000,
  client_metadata: {},
  client_read_only_metadata: {},
  has_password: true,
  auth_with_email: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  requires_totp_mfa: false,
  is_anonymous: false,
  selected_team_id: null,
  selected_team: null,
  oauth_providers: [],
};

const unmounts: (() => Promise<void>)[] = [];
after(async () => {
  for (const u of unmounts) await u();
});

/** Opens the menu of a UserButton whose button occupies [left, left + 40] of a 1024 px wide viewport. */
async function openAt(left: number): Promise<HTMLElement> {
  const transport = fakeTransport((req) =>
    req.path.startsWith('/users/me')
      ? { json: USER }
      : req.path.startsWith('/projects/current')
        ? { json: { id: 'internal', display_name: 'Acme', config: {} } }
        : { json: { items: [] } },
  );
  const app = new ClientApp({
    projectId: 'internal',
    transport,
    environment: manualEnvironment({ start: Date.now() }),
    tokenStore: memoryTokenStore({ accessToken: fakeJwt({ sub: 'u1' }), refreshToken: 'rt' }),
    redirectMethod: 'none',
  });
  const r = await render(
    <StrictMode>
      <GatehouseProvider app={app}>
        <UserButton showUserInfo />
      </GatehouseProvider>
    </StrictMode>,
  );
  unmounts.push(r.unmount);
  await waitForText(r.container, 'Ada');
  const proto = window.HTMLElement.prototype;
  const original = proto.getBoundingClientRect;
  proto.getBoundingClientRect = function (this: HTMLElement) {
    const rect = (l: number, w: number) =>
      ({ left: l, right: l + w, width: w, top: 0, bottom: 40, height: 40, x: l, y: 0, toJSON() {} }) as DOMRect;
    if (this.getAttribute('role') === 'menu') return rect(0, 220);
    if (this.classList.contains('gh-menu')) return rect(left, 40);
    return original.call(this);
  };
  Object.defineProperty(document.documentElement, 'clientWidth', { configurable: true, value: 1024 });
  try {
    await act(async () => {
      (r.container.querySelector('button[aria-haspopup=menu]') as HTMLButtonElement).click();
    });
    await flush();
  } finally {
    proto.getBoundingClientRect = original;
  }
  return r.container.querySelector('[role=menu]') as HTMLElement;
}

it('opens the menu rightwards from a button near the left edge, so it is not cut off', async () => {
  const menu = await openAt(4);
  assert.equal(menu.getAttribute('data-align'), 'start');
});

it('keeps the menu under the right edge of a button at the right of a header', async () => {
  const menu = await openAt(960);
  assert.equal(menu.getAttribute('data-align'), 'end');
});

it('lines the menu up with the edge that keeps it inside the viewport', () => {
  assert.equal(menuAlignment({ left: 4, right: 44 }, 220, 1024), 'start');
  assert.equal(menuAlignment({ left: 960, right: 1000 }, 220, 1024), 'end');
  assert.equal(menuAlignment({ left: 500, right: 540 }, 220, 1024), 'end', 'room on both sides: the usual right alignment');
  assert.equal(menuAlignment({ left: 4, right: 44 }, 2000, 300), 'end', 'wider than the viewport: max-width does the rest');
});
