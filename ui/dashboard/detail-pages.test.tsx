/**
 * The dashboard's user and team detail pages (issue 28) under happy-dom and StrictMode with a fake
 * transport: the user's state at a glance, linked provider accounts, metadata checked against the
 * server's bounds before Save, sign out everywhere, restrict, and delete only after typing the
 * email; the team's profile, members added from a combobox, API keys, metadata and delete.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { TransportRequest } from '../../sdk/transport.ts';
import { act, button, click, input, render, type, waitFor, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT, PROJECT_ID, dashboard } from './test-harness.tsx';

const USER_ID = '8c1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const TEAM_ID = '9d1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const SESSION_IDS = ['11111111-2222-4333-8444-555555555555', '21111111-2222-4333-8444-555555555555'];
const empty = { status: 200, body: { items: [], is_paginated: false } };
const bodyOf = (c: TransportRequest) => JSON.parse(c.body ?? '{}') as Record<string, unknown>;

function userApi() {
  let user: Record<string, unknown> = {
    id: USER_ID,
    display_name: 'Ada',
    primary_email: 'ada@example.com',
    primary_email_verified: true,
    signed_up_at_millis: 0,
    has_password: true,
    requires_totp_mfa: true,
    restricted_by_admin: false,
    client_metadata: { plan: 'pro' },
    client_read_only_metadata: null,
    server_metadata: null,
  };
  let sessions = SESSION_IDS.map((id) => ({ id, user_id: USER_ID, created_at: 0, is_impersonation: false, browser: 'Firefox 140' }));
  return dashboard(`/projects/${PROJECT_ID}/users/${USER_ID}`, (req) => {
    if (req.path === `/users/${USER_ID}` && req.method === 'GET') return { status: 200, body: user };
    if (req.path === `/users/${USER_ID}` && req.method === 'PATCH') {
      user = { ...user, ...bodyOf(req) };
      return { status: 200, body: user };
    }
    if (req.path === `/users/${USER_ID}` && req.method === 'DELETE') return { status: 200, body: { success: true } };
    if (req.path.startsWith('/auth/sessions?') && req.method === 'GET')
      return { status: 200, body: { items: sessions, is_paginated: false } };
    if (req.path.startsWith('/auth/sessions/') && req.method === 'DELETE') {
      sessions = sessions.filter((s) => !req.path.startsWith(`/auth/sessions/${s.id}`));
      return { status: 200, body: { success: true } };
    }
    if (req.path.startsWith('/oauth-providers?'))
      return {
        status: 200,
        body: {
          items: [
            {
              user_id: USER_ID,
              id: 'link-1',
              email: 'ada@users.noreply.github.com',
              provider_config_id: 'github',
              type: 'standard',
              allow_sign_in: true,
              allow_connected_accounts: false,
              account_id: '4242',
            },
          ],
          is_paginated: false,
        },
      };
    if (
      /^\/(contact-channels|passkeys|teams|team-permission-definitions|project-permissions|project-permission-definitions|user-api-keys)\b/.test(
        req.path,
      )
    )
      return empty;
    return undefined;
  });
}

it('user page: badges, linked provider accounts with their mark, and metadata refused before Save when invalid or too deep', async () => {
  const { api, calls } = userApi();
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'ada@users.noreply.github.com');
  const badges = container.querySelector('[data-testid="user-badges"]')?.textContent ?? '';
  assert.match(badges, /Email verified/);
  assert.match(badges, /Two-factor on/);
  assert.match(badges, /Password/);
  const links = container.querySelector('table[aria-label="Linked provider accounts"]') as HTMLElement;
  assert.match(links.textContent ?? '', /GitHub.*4242/);
  assert.ok(links.querySelector('svg[data-icon="github"] path'), "the provider's own mark");

  const meta = () => input(container, 'Client metadata (readable and writable by the user)') as unknown as HTMLTextAreaElement;
  assert.match(meta().value, /"plan": "pro"/);
  const setMeta = async (text: string) =>
    act(async () => {
      meta().value = text;
      meta().dispatchEvent(new Event('input', { bubbles: true }));
    });
  await setMeta('{"plan": ');
  await waitForText(container, 'Not valid JSON');
  const save = () => button(container, 'Save metadata');
  assert.equal(save().getAttribute('aria-disabled'), 'true');
  await setMeta(`${'['.repeat(40)}${']'.repeat(40)}`);
  await waitForText(container, 'Too deep: metadata nests at most 32 levels.');
  await click(container, 'Save metadata');
  assert.equal(
    calls.some((c) => c.method === 'PATCH'),
    false,
    'nothing sent while the JSON is refused',
  );
  await setMeta('{"plan": "team"}');
  await click(container, 'Save metadata');
  await waitFor(
    () => calls.some((c) => c.method === 'PATCH'),
    () => 'no PATCH',
  );
  const patch = calls.find((c) => c.method === 'PATCH')!;
  assert.deepEqual(bodyOf(patch), { client_metadata: { plan: 'team' }, client_read_only_metadata: null, server_metadata: null });
  await unmount();
});

it('user page: sign out everywhere ends every session, restrict sends the reason, delete asks for the email first', async () => {
  const { api, calls } = userApi();
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Firefox 140');
  await click(container, 'Sign out everywhere');
  const dialog = () => container.querySelector('[role="dialog"]') as HTMLElement;
  assert.ok(dialog(), 'asks in a dialog');
  await click(dialog(), 'Sign out every session');
  await waitFor(
    () => !dialog() && calls.filter((c) => c.method === 'DELETE' && c.path.startsWith('/auth/sessions/')).length === 2,
    () => `sessions deleted: ${calls.filter((c) => c.method === 'DELETE').map((c) => c.path)}`,
  );
  await waitForText(container, 'No active sessions.');

  await click(container, 'Restrict user');
  await type(dialog(), 'Reason (the user sees it)', 'Chargeback');
  await click(dialog(), 'Restrict and sign out');
  await waitForText(container, 'Restricted by an administrator: Chargeback');
  const restrict = calls.find((c) => c.method === 'PATCH')!;
  assert.deepEqual(bodyOf(restrict), {
    restricted_by_admin: true,
    restricted_by_admin_reason: 'Chargeback',
    restricted_by_admin_private_details: null,
  });
  assert.match(container.querySelector('[data-testid="user-badges"]')?.textContent ?? '', /Restricted/);

  await click(container, 'Delete user');
  await click(dialog(), 'Delete user');
  assert.equal(
    calls.some((c) => c.method === 'DELETE' && c.path.startsWith('/users/')),
    false,
    'not deleted before the email is typed',
  );
  await type(dialog(), 'Type ada@example.com to confirm', 'ada@example.com');
  await click(dialog(), 'Delete user');
  await waitFor(
    () => calls.some((c) => c.method === 'DELETE' && c.path === `/users/${USER_ID}`),
    () => 'no DELETE of the user',
  );
  await unmount();
});

it('team page: profile, members added from the search combobox, API keys, metadata and delete behind typing the name', async () => {
  let members: Array<{ team_id: string; user_id: string; display_name: string | null; user?: unknown }> = [];
  let team: Record<string, unknown> = {
    id: TEAM_ID,
    display_name: 'Engineering',
    created_at_millis: 0,
    profile_image_url: null,
    client_metadata: null,
    client_read_only_metadata: null,
    server_metadata: { tier: 2 },
  };
  const { api, calls } = dashboard(`/projects/${PROJECT_ID}/teams/${TEAM_ID}`, (req) => {
    if (req.path === '/internal/projects')
      return {
        status: 200,
        body: { items: [{ ...PROJECT, config: { ...PROJECT.config, allow_team_api_keys: true } }], is_paginated: false },
      };
    if (req.path === `/teams/${TEAM_ID}` && req.method === 'GET') return { status: 200, body: team };
    if (req.path === `/teams/${TEAM_ID}` && req.method === 'PATCH') {
      team = { ...team, ...bodyOf(req) };
      return { status: 200, body: team };
    }
    if (req.path === `/teams/${TEAM_ID}` && req.method === 'DELETE') return { status: 200, body: { success: true } };
    if (req.path.startsWith('/team-member-profiles?')) return { status: 200, body: { items: members, is_paginated: false } };
    if (req.path.startsWith('/users?'))
      return {
        status: 200,
        body: { items: [{ id: USER_ID, display_name: 'Grace', primary_email: 'grace@example.com' }], is_paginated: false },
      };
    if (req.path === `/team-memberships/${TEAM_ID}/${USER_ID}` && req.method === 'POST') {
      members = [
        {
          team_id: TEAM_ID,
          user_id: USER_ID,
          display_name: null,
          user: { id: USER_ID, display_name: 'Grace', primary_email: 'grace@example.com' },
        },
      ];
      return { status: 201, body: {} };
    }
    if (req.path.startsWith('/team-api-keys?'))
      return {
        status: 200,
        body: {
          items: [
            { id: 'k1', description: 'CI deploys', value: { last_four: 'abcd' }, created_at_millis: 0, type: 'team', team_id: TEAM_ID },
          ],
          is_paginated: false,
        },
      };
    if (/^\/(team-invitations|team-permission-definitions|team-permissions)\b/.test(req.path)) return empty;
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'CI deploys');
  assert.match(container.querySelector('table[aria-label="Team API keys"]')?.textContent ?? '', /…abcd/);
  assert.match((input(container, 'Server metadata (only your server sees it)') as unknown as HTMLTextAreaElement).value, /"tier": 2/);

  await type(container, 'Add a member', 'gra');
  await waitFor(
    () => !!container.querySelector('[role="option"]'),
    () => `no options: ${container.textContent}`,
  );
  const combo = input(container, 'Add a member');
  assert.equal(combo.getAttribute('role'), 'combobox');
  assert.equal(combo.getAttribute('aria-expanded'), 'true');
  await act(async () => {
    combo.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  });
  await waitForText(container, 'grace@example.com');
  assert.ok(calls.some((c) => c.method === 'POST' && c.path === `/team-memberships/${TEAM_ID}/${USER_ID}`));

  await type(container, 'Profile image URL', 'https://example.com/t.png');
  await click(container, 'Save');
  await waitFor(
    () => calls.some((c) => c.method === 'PATCH'),
    () => 'no PATCH',
  );
  assert.deepEqual(bodyOf(calls.find((c) => c.method === 'PATCH')!), {
    display_name: 'Engineering',
    profile_image_url: 'https://example.com/t.png',
  });

  await click(container, 'Delete team');
  const dialog = container.querySelector('[role="dialog"]') as HTMLElement;
  await type(dialog, 'Type Engineering to confirm', 'Engineering');
  await click(dialog, 'Delete team');
  await waitFor(
    () => calls.some((c) => c.method === 'DELETE' && c.path === `/teams/${TEAM_ID}`),
    () => 'no DELETE of the team',
  );
  await unmount();
});
